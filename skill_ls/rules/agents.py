"""Agent definition rules (AG001-AG005). See skill_ls/agents.py for parsing and validation."""
from __future__ import annotations
