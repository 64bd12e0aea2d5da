//! PBBS checkers.
