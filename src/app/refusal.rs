//! Why the page refused something, as data: the scenario reader's or
//! validation's refusal, an edit's, or a file's that was not read at all.
//! Below the page's words (`i18n/errors.rs` words each in both languages)
//! and the state and effects that raise them, so none of them imports
//! another in a circle.

use crate::attention::ScenarioError;
use crate::lesson::edit::EditError;

/// Why something was refused, typed by the layer that refused it.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// The scenario reader or validation (docs/format.md §1).
    Scenario(ScenarioError),
    /// An edit (`crate::lesson::edit`).
    Edit(EditError),
    /// A file that was not read at all.
    Load(LoadError),
}

impl Refusal {
    /// The field the refusal names (empty for a file not read).
    pub fn field(&self) -> String {
        match self {
            Refusal::Scenario(e) => e.field.clone(),
            Refusal::Edit(e) => e.field(),
            Refusal::Load(_) => String::new(),
        }
    }
}

/// Why a file the user picked was not read (before the scenario reader
/// sees any of it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// A file of `got` bytes, over the `limit`.
    TooLarge { limit: usize, got: usize },
    /// The browser could not read the file.
    Unreadable,
}
