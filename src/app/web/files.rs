//! Files in and out: reading a file the reader picked, offering a
//! download, copying to the clipboard.

use super::window;

/// The largest scenario file the page reads: 2 MB (refused by its size,
/// before it is read).
pub const MAX_IMPORT_BYTES: usize = 2 * 1024 * 1024;

/// Offers `text` as a download named `filename`.
pub fn download(filename: &str, mime: &str, text: &str) -> bool {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else {
        return false;
    };
    let Ok(href) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return false;
    };
    let done = download_url(filename, &href);
    let _ = web_sys::Url::revoke_object_url(&href);
    done
}

/// Offers the resource at `href` (a `blob:` or `data:` URL) as a download.
pub fn download_url(filename: &str, href: &str) -> bool {
    use wasm_bindgen::JsCast;
    let run = || -> Option<()> {
        let doc = window()?.document()?;
        let a: web_sys::HtmlAnchorElement = doc.create_element("a").ok()?.dyn_into().ok()?;
        a.set_href(href);
        a.set_download(filename);
        doc.body()?.append_child(&a).ok()?;
        a.click();
        a.remove();
        Some(())
    };
    run().is_some()
}

/// Copies `text` to the clipboard; `Ok` when the browser confirmed it.
pub async fn copy_text(text: String) -> Result<(), ()> {
    let clipboard = window().map(|w| w.navigator().clipboard()).ok_or(())?;
    wasm_bindgen_futures::JsFuture::from(clipboard.write_text(&text))
        .await
        .map(|_| ())
        .map_err(|_| ())
}

pub use crate::app::refusal::LoadError;

/// The text of a scenario file the user picked. A file over
/// [`MAX_IMPORT_BYTES`] is refused by its size, before it is read.
pub async fn read_file(file: web_sys::File) -> Result<String, LoadError> {
    let size = file.size();
    if size > MAX_IMPORT_BYTES as f64 {
        return Err(LoadError::TooLarge {
            limit: MAX_IMPORT_BYTES,
            got: size as usize,
        });
    }
    wasm_bindgen_futures::JsFuture::from(file.text())
        .await
        .ok()
        .and_then(|v| v.as_string())
        .ok_or(LoadError::Unreadable)
}
