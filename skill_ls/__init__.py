"""skill-ls: a language server and headless checker for Agent Skills and agent definitions."""

__version__ = "0.1.0"
