"""The games bundled with meeple, one package each; no game imports another."""
