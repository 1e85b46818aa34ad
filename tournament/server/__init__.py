"""Serving the app: the database from the environment, the security headers and the client's address behind
proxies, the log's lines, the system checks run at start."""
