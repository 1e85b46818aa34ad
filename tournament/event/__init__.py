"""The event as the director runs it: rounds and their seating, Anti-Monopoly's roles at seating, the
director's interventions on the day, results and standings."""
