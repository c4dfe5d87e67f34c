//! Search and evaluation (to come).
