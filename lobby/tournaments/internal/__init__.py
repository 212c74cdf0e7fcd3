"""The helpers the tournament services share: the lock and checks, a
round's deadline, notices, results, eligibility."""
