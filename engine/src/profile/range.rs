//! How a section declares its numbers for `findbench tune`, beside its `Default`: a
//! [`Tunable`] with its range, or a [`NotTunable`] with the reason it is left as it is.
//! `tunable.rs` joins the sections' tables under their JSON paths.

/// A tunable number of a section, by its field's path inside the section.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tunable {
    /// The field's JSON path inside its section (`k1`, `path.weight`).
    pub field: &'static str,
    pub min: f64,
    pub max: f64,
    /// Whole numbers only (a count, a length).
    pub integer: bool,
}

/// A real-valued tunable number in `[min, max]`.
pub const fn real(field: &'static str, min: f64, max: f64) -> Tunable {
    Tunable {
        field,
        min,
        max,
        integer: false,
    }
}

/// An integer tunable number in `[min, max]`.
pub const fn integer(field: &'static str, min: f64, max: f64) -> Tunable {
    Tunable {
        field,
        min,
        max,
        integer: true,
    }
}

/// A number of a section that is not searched, and why.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NotTunable {
    pub field: &'static str,
    pub reason: &'static str,
}

/// A number of a section that is not searched, and why.
pub const fn fixed(field: &'static str, reason: &'static str) -> NotTunable {
    NotTunable { field, reason }
}
