//! Small messages: what changed in one viewer's document (its table information, seat view and
//! legal actions) from one version to the next, as a flat patch that the client applies to the
//! document of its last snapshot.
//!
//! A patch is a JSON object of `path → value`. A path is the keys and indices from the
//! document's root joined by `/` (`view/hand_sizes/2`); the value replaces what is there. A
//! path ending in `+` appends the value's items to the array there (`view/trick+`); a path
//! ending in `-` removes from the array there the items at the value's indices, given in
//! increasing order (`"view/hand-": [3]`: the card just played). Paths of one patch never overlap, so their order does not matter. Where replacing a part whole is shorter
//! than describing its changes, the part is replaced whole; an object whose keys changed is
//! replaced whole. `web/patch.js` is the browser's [`apply`].

use std::fmt::Write as _;

use serde_json::{Map, Value};

/// The patch that turns `old` into `new` (empty if they are equal).
pub fn diff(old: &Value, new: &Value) -> Map<String, Value> {
    let mut out = Map::new();
    diff_into("", old, new, &mut out);
    out
}

/// Add to `out` the patch that turns `old` into `new`, with every path under `prefix` (`""`:
/// the document's root).
pub fn diff_into(prefix: &str, old: &Value, new: &Value, out: &mut Map<String, Value>) {
    let mut path = String::with_capacity(64);
    path.push_str(prefix);
    walk(&mut path, prefix.is_empty(), old, new, out);
}

/// Keys that a path can carry unambiguously.
fn plain_key(k: &str) -> bool {
    !k.is_empty() && !k.contains('/') && !k.ends_with('+') && !k.ends_with('-')
}

fn size(v: &Value) -> usize {
    serde_json::to_string(v).map_or(usize::MAX, |s| s.len())
}

fn patch_size(m: &Map<String, Value>) -> usize {
    m.iter().map(|(k, v)| k.len() + 4 + size(v)).sum()
}

/// `path` with `/key` (or `key` at the root) while `f` runs, then as it was: no allocation per
/// node visited.
fn under(path: &mut String, key: &str, f: impl FnOnce(&mut String)) {
    let len = path.len();
    if len > 0 {
        path.push('/');
    }
    path.push_str(key);
    f(path);
    path.truncate(len);
}

/// Whether two objects have the same keys, all plain (keys are sorted in both).
fn same_keys(a: &Map<String, Value>, b: &Map<String, Value>) -> bool {
    a.len() == b.len() && a.keys().zip(b.keys()).all(|(x, y)| x == y && plain_key(y))
}

/// Each leaf is compared once (no deep comparison of a subtree before descending into it; the
/// keys of two objects are walked side by side), and a part is weighed against its whole new
/// value only where that can pay: where three or more of its parts changed (one or two changes
/// are always written as such). The root and the document's parts (`prefix` itself) are always
/// described.
fn walk(path: &mut String, root: bool, old: &Value, new: &Value, out: &mut Map<String, Value>) {
    let mut sub = Map::new();
    match (old, new) {
        (Value::Object(a), Value::Object(b)) if same_keys(a, b) => {
            for ((k, x), (_, y)) in a.iter().zip(b.iter()) {
                if !x.is_object() && !x.is_array() && x == y {
                    continue;
                }
                under(path, k, |p| walk(p, false, x, y, &mut sub));
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            let mut index = String::with_capacity(4);
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                if !x.is_object() && !x.is_array() && x == y {
                    continue;
                }
                index.clear();
                let _ = write!(index, "{i}");
                under(path, &index, |p| walk(p, false, x, y, &mut sub));
            }
        }
        (Value::Array(a), Value::Array(b)) if b.len() > a.len() && b[..a.len()] == a[..] => {
            out.insert(format!("{path}+"), Value::Array(b[a.len()..].to_vec()));
            return;
        }
        (Value::Array(a), Value::Array(b)) if b.len() < a.len() => match removed(a, b) {
            // Removing more items than stay: the new array is shorter to write.
            Some(gone) if gone.len() <= b.len() => {
                out.insert(format!("{path}-"), Value::from(gone));
                return;
            }
            _ => {
                out.insert(path.clone(), new.clone());
                return;
            }
        },
        (x, y) if x == y => return,
        _ => {
            out.insert(path.clone(), new.clone());
            return;
        }
    }
    if sub.len() >= 3 && !root && path.contains('/') && patch_size(&sub) >= path.len() + 4 + size(new) {
        out.insert(path.clone(), new.clone());
    } else {
        out.extend(sub);
    }
}

/// The indices of `a` whose removal leaves `b`, if `b` is `a` less some items.
fn removed(a: &[Value], b: &[Value]) -> Option<Vec<usize>> {
    let mut gone = Vec::with_capacity(a.len() - b.len());
    let mut j = 0;
    for (i, x) in a.iter().enumerate() {
        if j < b.len() && *x == b[j] {
            j += 1;
        } else {
            gone.push(i);
        }
    }
    (j == b.len()).then_some(gone)
}

/// Why a patch does not apply (the client then asks for a snapshot).
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("the patch does not fit the document at `{0}`")]
pub struct Misfit(pub String);

/// Apply `patch` to `doc`. On error `doc` may be partly changed: take a snapshot.
pub fn apply(doc: &mut Value, patch: &Map<String, Value>) -> Result<(), Misfit> {
    for (path, value) in patch {
        let (path, op) = if let Some(p) = path.strip_suffix('+') {
            (p, '+')
        } else if let Some(p) = path.strip_suffix('-') {
            (p, '-')
        } else {
            (path.as_str(), '=')
        };
        let mut at = &mut *doc;
        if !path.is_empty() {
            for key in path.split('/') {
                at = match at {
                    Value::Object(m) => m.get_mut(key),
                    Value::Array(a) => key.parse::<usize>().ok().and_then(|i| a.get_mut(i)),
                    _ => None,
                }
                .ok_or_else(|| Misfit(path.to_string()))?;
            }
        }
        match (op, at, value) {
            ('+', Value::Array(a), Value::Array(more)) => a.extend(more.iter().cloned()),
            ('-', Value::Array(a), Value::Array(gone)) => {
                let gone: Option<Vec<usize>> = gone.iter().map(|i| i.as_u64().map(|i| i as usize)).collect();
                let gone = gone.ok_or_else(|| Misfit(path.to_string()))?;
                if gone.windows(2).any(|w| w[0] >= w[1]) || gone.last().is_some_and(|&i| i >= a.len()) {
                    return Err(Misfit(path.to_string()));
                }
                let mut k = 0;
                let mut i = 0;
                a.retain(|_| {
                    let keep = gone.get(k) != Some(&i);
                    if !keep {
                        k += 1;
                    }
                    i += 1;
                    keep
                });
            }
            ('=', at, value) => *at = value.clone(),
            _ => return Err(Misfit(path.to_string())),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round_trip(a: Value, b: Value) -> Map<String, Value> {
        let p = diff(&a, &b);
        let mut doc = a;
        apply(&mut doc, &p).unwrap();
        assert_eq!(doc, b);
        p
    }

    #[test]
    fn a_played_card_is_an_append_and_two_numbers() {
        let a = json!({"view": {"trick": [[0, "4H"]], "to_move": [1], "hand_sizes": [6, 7, 7]}, "legal": []});
        let b =
            json!({"view": {"trick": [[0, "4H"], [1, "6S"]], "to_move": [2], "hand_sizes": [6, 6, 7]}, "legal": []});
        let p = round_trip(a, b);
        assert_eq!(p["view/trick+"], json!([[1, "6S"]]));
        assert_eq!(p["view/hand_sizes/1"], json!(6));
        assert_eq!(p.len(), 3);
    }

    #[test]
    fn a_card_leaving_a_hand_is_a_removal() {
        let a = json!({"hand": ["2S", "7H", "4C", "5C", "2D", "6D", "7D"]});
        let b = json!({"hand": ["2S", "7H", "4C", "2D", "6D", "7D"]});
        let p = round_trip(a, b);
        assert_eq!(p["hand-"], json!([3]));
        round_trip(json!({"h": [1, 2, 3, 4]}), json!({"h": [2, 4]}));
        round_trip(json!({"h": [1, 2, 3]}), json!({"h": [3, 1]}));
        let mut doc = json!({"h": [1, 2]});
        let mut bad = Map::new();
        bad.insert("h-".into(), json!([1, 0]));
        assert!(apply(&mut doc, &bad).is_err());
        bad.insert("h-".into(), json!([2]));
        assert!(apply(&mut doc, &bad).is_err());
    }

    #[test]
    fn odd_changes_replace_whole() {
        round_trip(json!({"a": {"x": 1}}), json!({"a": {"y": 1}}));
        round_trip(json!({"a": [1, 2, 3]}), json!({"a": [1]}));
        round_trip(json!({"a": null}), json!({"a": {"b": [1]}}));
        round_trip(json!({"a/b": 1}), json!({"a/b": 2}));
        round_trip(json!({"a+": [1]}), json!({"a+": [1, 2]}));
        round_trip(json!({"a-": [1, 2]}), json!({"a-": [1]}));
        round_trip(json!([1]), json!({"x": 1}));
        assert!(diff(&json!({"a": 1}), &json!({"a": 1})).is_empty());
    }

    #[test]
    fn a_misfit_is_reported() {
        let mut doc = json!({"a": 1});
        assert!(apply(&mut doc, &diff(&json!({"b": [1]}), &json!({"b": [1, 2]}))).is_err());
    }
}
