"""The store contract: every backend passes the same tests, written against the ports only."""
