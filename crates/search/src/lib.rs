//! Search (to come).
