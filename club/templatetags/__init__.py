"""Template tags of the club's pages (links to members, money, the navigation)."""
