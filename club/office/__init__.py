"""The secretary's office: the club's house rules and the audit log. Its views use the
club's services and ``club.web``."""
