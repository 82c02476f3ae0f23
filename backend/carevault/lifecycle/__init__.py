"""Key lifecycle jobs that work across every practice: re-encryption."""
