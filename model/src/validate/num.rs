//! Numbers as draft-07 compares them: exactly, whatever JSON wrote (`1`, `1.0`, `1e0`).

use std::cmp::Ordering;

use serde_json::{Map, Number, Value};

/// A JSON number as `serde_json` holds it: an integer (of `u64` or `i64`) or a float.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Num {
    Int(i128),
    Float(f64),
}

impl Num {
    pub(crate) fn of(n: &Number) -> Num {
        if let Some(u) = n.as_u64() {
            Num::Int(i128::from(u))
        } else if let Some(i) = n.as_i64() {
            Num::Int(i128::from(i))
        } else {
            Num::Float(n.as_f64().unwrap_or(f64::NAN))
        }
    }

    /// The value as a float (what `multipleOf` computes with, as `jsonschema` does).
    pub(crate) fn to_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }

    /// Whether the number is integral (`1.0` is: draft-07's `integer`).
    pub(crate) fn is_integral(self) -> bool {
        match self {
            Num::Int(_) => true,
            Num::Float(f) => f.is_finite() && f.fract() == 0.0,
        }
    }
}

/// `a` against `b`, exactly (`None` only for NaN, which JSON cannot write).
pub(crate) fn compare(a: Num, b: Num) -> Option<Ordering> {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => Some(x.cmp(&y)),
        (Num::Float(x), Num::Float(y)) => x.partial_cmp(&y),
        (Num::Int(x), Num::Float(y)) => int_float(x, y),
        (Num::Float(x), Num::Int(y)) => int_float(y, x).map(Ordering::reverse),
    }
}

/// An integer (within `i64`/`u64`) against a float, without rounding either.
fn int_float(i: i128, f: f64) -> Option<Ordering> {
    if f.is_nan() {
        return None;
    }
    // 2^70: beyond every integer serde_json holds.
    const FAR: f64 = 1_180_591_620_717_411_303_424.0;
    if f >= FAR {
        return Some(Ordering::Less);
    }
    if f <= -FAR {
        return Some(Ordering::Greater);
    }
    let whole = f.trunc();
    // Exact: |whole| < 2^70 fits an i128.
    let t = whole as i128;
    Some(match i.cmp(&t) {
        Ordering::Equal if f > whole => Ordering::Less,
        Ordering::Equal if f < whole => Ordering::Greater,
        other => other,
    })
}

/// JSON equality as draft-07 means it (`enum`, `const`, `uniqueItems`): numbers by value,
/// objects whatever their key order.
pub(crate) fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            compare(Num::of(x), Num::of(y)) == Some(Ordering::Equal)
        }
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => objects_equal(x, y),
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Null, Value::Null) => true,
        _ => false,
    }
}

fn objects_equal(x: &Map<String, Value>, y: &Map<String, Value>) -> bool {
    x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w)))
}

/// Whether `value` is a multiple of `multiple` (> 0), reading both as the decimals they
/// print as (`0.3` is a multiple of `0.1`), as `jsonschema` does.
pub(crate) fn is_multiple_of(value: Num, multiple: f64) -> bool {
    const SAFE: f64 = 9_007_199_254_740_992.0; // 2^53
    if multiple.fract() == 0.0 {
        if let Num::Int(v) = value
            && multiple > 0.0
            && multiple <= SAFE
        {
            return v % (multiple as i128) == 0;
        }
        let v = value.to_f64();
        return v.fract() == 0.0 && v % multiple == 0.0;
    }
    let v = value.to_f64();
    if v == 0.0 {
        return true;
    }
    if v.abs() < multiple {
        return false;
    }
    if let Some(answer) = divides_exactly(v, multiple) {
        return answer;
    }
    let quotient = v / multiple;
    if quotient.is_finite() {
        quotient.fract() == 0.0
    } else {
        // Past `f64`'s range the remainder is still exact.
        v % multiple == 0.0
    }
}

/// A finite float as the decimal it prints as: `mantissa / 10^decimals`.
fn decimal_parts(value: f64) -> Option<(i128, i32)> {
    if !value.is_finite() {
        return None;
    }
    let text = format!("{value:e}");
    let (digits, exponent) = text.split_once('e')?;
    let exponent: i32 = exponent.parse().ok()?;
    let (negative, digits) = match digits.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, digits),
    };
    let mut mantissa: i128 = 0;
    let mut decimals: i32 = 0;
    let mut fractional = false;
    for b in digits.bytes() {
        if b == b'.' {
            fractional = true;
            continue;
        }
        mantissa = mantissa
            .checked_mul(10)?
            .checked_add(i128::from(b.checked_sub(b'0')?))?;
        decimals += i32::from(fractional);
    }
    Some((
        if negative { -mantissa } else { mantissa },
        decimals - exponent,
    ))
}

/// Whether `value / multiple` is an integer, both read as the decimals they print as:
/// `vm / 10^vd` and `mm / 10^md`, so the quotient is `vm * 10^(md - vd) / mm`.
fn divides_exactly(value: f64, multiple: f64) -> Option<bool> {
    let (vm, vd) = decimal_parts(value)?;
    let (mm, md) = decimal_parts(multiple)?;
    if mm == 0 {
        return None;
    }
    let shift = i64::from(md) - i64::from(vd);
    if shift >= 0 {
        // (vm * 10^shift) mod mm, without overflow.
        let m = mm.unsigned_abs();
        let mut power: u128 = 1 % m;
        let mut base: u128 = 10 % m;
        let mut e = u64::try_from(shift).ok()?;
        while e > 0 {
            if e & 1 == 1 {
                power = mul_mod(power, base, m);
            }
            base = mul_mod(base, base, m);
            e >>= 1;
        }
        Some(mul_mod(vm.unsigned_abs() % m, power, m) == 0)
    } else {
        let places = u32::try_from(-shift).ok()?;
        match 10_i128.checked_pow(places).and_then(|p| p.checked_mul(mm)) {
            Some(divisor) => Some(vm % divisor == 0),
            // The divisor is beyond every mantissa: only zero divides.
            None => Some(vm == 0),
        }
    }
}

/// `a * b mod m` for `a, b < m < 2^127`.
fn mul_mod(a: u128, b: u128, m: u128) -> u128 {
    if let Some(p) = a.checked_mul(b) {
        return p % m;
    }
    let (mut a, mut b, mut out) = (a, b, 0u128);
    while b > 0 {
        if b & 1 == 1 {
            out = (out + a) % m;
        }
        a = (a << 1) % m;
        b >>= 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn n(v: Value) -> Num {
        match v {
            Value::Number(n) => Num::of(&n),
            _ => panic!("a number"),
        }
    }

    #[test]
    fn comparisons_are_exact() {
        assert_eq!(compare(n(json!(1)), n(json!(1.0))), Some(Ordering::Equal));
        assert_eq!(
            compare(
                n(json!(9_007_199_254_740_993_u64)),
                n(json!(9_007_199_254_740_992.0))
            ),
            Some(Ordering::Greater)
        );
        assert_eq!(compare(n(json!(-1)), n(json!(-0.5))), Some(Ordering::Less));
        assert_eq!(
            compare(n(json!(u64::MAX)), n(json!(1e300))),
            Some(Ordering::Less)
        );
        assert!(equal(&json!({"a": [1, 2.0]}), &json!({"a": [1.0, 2]})));
        assert!(!equal(&json!([1]), &json!([true])));
    }

    #[test]
    fn multiples_read_decimals() {
        assert!(is_multiple_of(n(json!(0.3)), 0.1));
        assert!(!is_multiple_of(n(json!(0.35)), 0.1));
        assert!(is_multiple_of(n(json!(10)), 2.0));
        assert!(!is_multiple_of(n(json!(7)), 2.0));
        assert!(is_multiple_of(n(json!(4.0)), 2.0));
        assert!(!is_multiple_of(n(json!(4.5)), 2.0));
        assert!(is_multiple_of(n(json!(0)), 0.5));
        assert!(is_multiple_of(n(json!(1e308)), 0.5));
        assert!(is_multiple_of(n(json!(-1e308)), 0.1));
        assert!(!is_multiple_of(n(json!(1e-300)), 0.3));
    }
}
