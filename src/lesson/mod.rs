//! Pure teaching code: the notes' worked examples as presets, and how numbers
//! are shown. No browser APIs here, so all of it is tested natively.

pub mod format;
pub mod presets;
pub mod random;
