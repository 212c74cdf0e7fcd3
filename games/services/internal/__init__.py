"""The helpers several game services share (docs/architecture.md,
"Services: entry points and helpers"): their public names serve only the
service layer."""
