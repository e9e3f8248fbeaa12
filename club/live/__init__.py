"""The live side (issue 80): the notices published when the books or the seating change
(notices) and the event streams the pages listen to (streams)."""
