"""The change feed (an outbox of change events): see carevault.events.feed."""
