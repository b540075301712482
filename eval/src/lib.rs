//! chuhan's evaluation (placeholder until the evaluation issue lands).
