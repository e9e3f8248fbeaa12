"""Template tags of the play pages."""
