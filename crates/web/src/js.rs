//! Small bridges to JavaScript: plain values out, a clock in.

use serde::Serialize;
use wasm_bindgen::JsValue;

/// Serialises `value` to a plain JavaScript object (`None` becomes `null`, numbers stay numbers).
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> JsValue {
    let serializer =
        serde_wasm_bindgen::Serializer::new().serialize_missing_as_null(true).serialize_maps_as_objects(true);
    // Our records hold only strings, numbers, booleans, arrays and options: this cannot fail.
    value.serialize(&serializer).unwrap_or(JsValue::NULL)
}

/// A millisecond clock: `performance.now()` when the global scope has it (windows and
/// workers), `Date.now()` otherwise.
#[cfg(feature = "engine")]
pub fn clock() -> impl Fn() -> f64 {
    use wasm_bindgen::JsCast;
    let global = js_sys::global();
    let performance = js_sys::Reflect::get(&global, &JsValue::from_str("performance")).ok();
    let now = performance
        .as_ref()
        .and_then(|p| js_sys::Reflect::get(p, &JsValue::from_str("now")).ok())
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    move || match (&performance, &now) {
        (Some(p), Some(now)) => now.call0(p).ok().and_then(|v| v.as_f64()).unwrap_or_else(js_sys::Date::now),
        _ => js_sys::Date::now(),
    }
}
