//! A seat view written as JSON text one top-level field at a time, without building a tree: a
//! server that tells many viewers what changed compares each field's text with the one it sent
//! last, and reads back into a tree only the few fields that changed.

use std::borrow::Cow;
use std::ops::Range;

use serde::Serialize;
use serde_json::{Map, Value};

/// A view's fields: each key and where its value's JSON text lies in one buffer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ViewText {
    bytes: Vec<u8>,
    fields: Vec<(Cow<'static, str>, Range<usize>)>,
}

impl ViewText {
    /// Empty, keeping the buffers (to write another view into them).
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.fields.clear();
    }

    /// Add field `key` with `value`.
    pub fn field<T: Serialize + ?Sized>(&mut self, key: impl Into<Cow<'static, str>>, value: &T) {
        let start = self.bytes.len();
        serde_json::to_writer(&mut self.bytes, value).expect("a view's field serializes");
        self.fields.push((key.into(), start..self.bytes.len()));
    }

    /// The fields in the order they were written: key and JSON text.
    pub fn fields(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.fields.iter().map(|(k, r)| (k.as_ref(), &self.bytes[r.clone()]))
    }

    /// The JSON text of field `key`.
    pub fn get(&self, key: &str) -> Option<&[u8]> {
        self.fields.iter().find(|(k, _)| k == key).map(|(_, r)| &self.bytes[r.clone()])
    }

    /// Leave out field `key` (if there).
    pub fn remove(&mut self, key: &str) {
        self.fields.retain(|(k, _)| k != key);
    }

    /// Whether both have the same keys in the same order.
    pub fn same_keys(&self, other: &ViewText) -> bool {
        self.fields.len() == other.fields.len() && self.fields.iter().zip(&other.fields).all(|(a, b)| a.0 == b.0)
    }

    /// The value of one field's text.
    pub fn parse(text: &[u8]) -> Value {
        serde_json::from_slice(text).expect("a view's field is JSON")
    }

    /// The view as one JSON object.
    pub fn to_json(&self) -> Value {
        Value::Object(self.fields().map(|(k, t)| (k.to_string(), ViewText::parse(t))).collect::<Map<_, _>>())
    }

    /// The fields of a view made as a tree (for views without their own writer).
    pub fn from_json(view: &Value) -> ViewText {
        let mut out = ViewText::default();
        if let Value::Object(m) = view {
            for (k, v) in m {
                out.field(k.clone(), v);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fields_read_back_as_the_object_they_were_written_from() {
        let v = json!({"a": [1, 2], "b": {"c": null, "d": "x"}, "e": -3});
        let t = ViewText::from_json(&v);
        assert_eq!(t.to_json(), v);
        assert_eq!(t.get("a"), Some(&b"[1,2]"[..]));
        let mut t2 = t.clone();
        t2.remove("b");
        assert!(!t.same_keys(&t2));
        assert_eq!(t2.to_json(), json!({"a": [1, 2], "e": -3}));
    }
}
