"""Developer tools that are not part of the `carevault` distribution."""
