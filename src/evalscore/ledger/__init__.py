"""The decision ledger: an append-only, hash-chained record of every decision ``score --ledger`` made."""
