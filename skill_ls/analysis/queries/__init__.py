"""What an editor asks about a file, answered as plain values (rust-analyzer's `ide` crate is the
model): hover text, definitions, references, code-lens labels, completion items, document links and
symbols, quick fixes, and which runtimes (and agent) the names in a file resolve under.

Every query takes the folder's `WorkspaceState` (its index, configuration and file kinds), a path and,
for position queries, a 0-based line and code point column — the positions of `core.model.Span`.
`skill_ls/server/` converts the answers to LSP (`server/convert.py`) and schedules them; it decides
no content. One module per question: `scope` (runtime choice), `hover`, `goto` (definitions and
references), `lens`, `completion`, `symbols`, `actions`; document links are
`analysis.navigation.file_links`.
"""
