"""The fault campaigns of issue 34 (see README.md)."""
