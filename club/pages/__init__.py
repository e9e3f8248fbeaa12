"""Page helpers (issue 80): what the club's views share (web: refusals, forms' errors,
the staff check), one strict reading of a request's numbers (inputs), logins (auth)
and roles."""
