//! Mounts the app; nothing else.

fn main() {
    yew::Renderer::<attention_lab::app::App>::new().render();
}
