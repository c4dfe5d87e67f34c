//! Small bridges to JavaScript: plain values out, a clock in.

use wasm_bindgen::JsValue;

/// A Rust value as the plain JavaScript value the page reads: strings, numbers, booleans, arrays,
/// `null` for `None`, and objects built field by field. The rules module converts its records with
/// this rather than serde, whose serialiser and key cache would weigh about 12 KB of its wasm.
#[cfg(feature = "rules")]
pub trait ToJs {
    /// The JavaScript value.
    fn to_js(&self) -> JsValue;
}

#[cfg(feature = "rules")]
mod plain {
    use super::ToJs;
    use wasm_bindgen::JsValue;

    impl ToJs for str {
        fn to_js(&self) -> JsValue {
            JsValue::from_str(self)
        }
    }

    impl ToJs for String {
        fn to_js(&self) -> JsValue {
            JsValue::from_str(self)
        }
    }

    impl ToJs for char {
        fn to_js(&self) -> JsValue {
            JsValue::from_str(self.encode_utf8(&mut [0; 4]))
        }
    }

    impl ToJs for bool {
        fn to_js(&self) -> JsValue {
            JsValue::from_bool(*self)
        }
    }

    impl ToJs for u8 {
        fn to_js(&self) -> JsValue {
            JsValue::from_f64(f64::from(*self))
        }
    }

    impl ToJs for i32 {
        fn to_js(&self) -> JsValue {
            JsValue::from_f64(f64::from(*self))
        }
    }

    impl ToJs for usize {
        fn to_js(&self) -> JsValue {
            JsValue::from_f64(*self as f64)
        }
    }

    impl<T: ToJs> ToJs for Option<T> {
        fn to_js(&self) -> JsValue {
            self.as_ref().map_or(JsValue::NULL, ToJs::to_js)
        }
    }

    impl<T: ToJs> ToJs for [T] {
        fn to_js(&self) -> JsValue {
            self.iter().map(ToJs::to_js).collect::<js_sys::Array>().into()
        }
    }

    impl<T: ToJs> ToJs for Vec<T> {
        fn to_js(&self) -> JsValue {
            self.as_slice().to_js()
        }
    }
}

/// A plain JavaScript object, built field by field.
#[cfg(feature = "rules")]
pub struct Object(js_sys::Object);

#[cfg(feature = "rules")]
impl Object {
    /// An empty object.
    pub fn new() -> Object {
        Object(js_sys::Object::new())
    }

    /// Sets field `name` to `value`.
    pub fn field(self, name: &str, value: &(impl ToJs + ?Sized)) -> Object {
        // Setting a field of a plain object cannot fail.
        let _ = js_sys::Reflect::set(&self.0, &JsValue::from_str(name), &value.to_js());
        self
    }

    /// Sets field `name` to `value` when there is one; leaves the field out otherwise (where
    /// [`Object::field`] would set it to `null`).
    pub fn optional(self, name: &str, value: Option<&impl ToJs>) -> Object {
        match value {
            Some(value) => self.field(name, value),
            None => self,
        }
    }

    /// The object.
    pub fn build(self) -> JsValue {
        self.0.into()
    }
}

/// Serialises `value` to a plain JavaScript object (`None` becomes `null`, numbers stay numbers).
#[cfg(feature = "engine")]
pub fn to_js<T: serde::Serialize + ?Sized>(value: &T) -> JsValue {
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
    let performance = js_sys::Reflect::get(&global, &JsValue::from_str("performance"))
        .ok()
        .filter(|p| js_sys::Reflect::get(p, &JsValue::from_str("now")).is_ok_and(|now| now.is_function()))
        .map(|p| p.unchecked_into::<timing::Performance>());
    // A typed call: the search reads the clock every 256 nodes, and a call through
    // `Function.call` with its result boxed cost about 10,000 instructions in V8.
    move || performance.as_ref().map_or_else(js_sys::Date::now, timing::Performance::now)
}

#[cfg(feature = "engine")]
mod timing {
    use wasm_bindgen::prelude::wasm_bindgen;

    #[wasm_bindgen]
    extern "C" {
        /// The global scope's `performance` object.
        pub type Performance;

        /// Milliseconds since the page or worker started, fractional.
        #[wasm_bindgen(method)]
        pub fn now(this: &Performance) -> f64;
    }
}
