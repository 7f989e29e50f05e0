"""The before-fixture of the fight (data: one parquet file per rule system, CHANGES.md)."""
