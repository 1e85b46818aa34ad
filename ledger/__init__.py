"""The ledger: each participant's income/cost card (004), built from the engine's money movements."""

from ledger.card import Ledger, Line

__all__ = ["Ledger", "Line"]
