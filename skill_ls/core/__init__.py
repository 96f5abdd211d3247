"""The analysis core's foundation: values, parsing, runtime descriptors, configuration, discovery,
the index and precedence resolution. Knows nothing about rules, catalogs or LSP."""
