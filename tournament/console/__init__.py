"""The referee's console: the screen a referee uses at a physical table to enter a game move by move."""
