"""Analysis over the index: rules, effective sets, catalogs, navigation queries, the checker and the
live workspace state the server drives. Knows nothing about LSP."""
