//! The page's named hooks: each wraps one browser effect (a listener, an
//! observer, a frame loop, storage) behind a small interface, so that a
//! component's body says what it needs and its view stays a view.

mod clock;
mod document;
mod input_value;
mod keys;
mod persistence;
mod when_seen;
mod width;

pub use clock::use_animation_clock;
pub use document::{
    use_after_first_paint, use_convention_in_address, use_height_for_host, use_page_language,
};
pub use input_value::use_input_value;
pub use keys::{aimed_at_control, use_keys};
pub use persistence::use_persistence;
pub use when_seen::use_when_seen;
pub use width::use_width;
