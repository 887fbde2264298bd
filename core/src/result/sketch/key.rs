//! A map key as the sketch writes it: as `serde_json`'s `to_value` would ([`KeySer`] for
//! the common keys, [`serde_json_key`] by `serde_json` itself for the rest).

use serde::ser::{self, Impossible, Serialize};
use serde_json::Value;

use super::Error;

/// A map key as `to_value` writes it, by `serde_json` itself: the key of a one-entry map.
pub(super) fn serde_json_key<T: Serialize + ?Sized>(key: &T) -> Result<String, Error> {
    struct OneEntry<'a, T: ?Sized>(&'a T);
    impl<T: Serialize + ?Sized> Serialize for OneEntry<'_, T> {
        fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use ser::SerializeMap as _;
            let mut m = s.serialize_map(Some(1))?;
            m.serialize_entry(self.0, &())?;
            m.end()
        }
    }
    match serde_json::to_value(OneEntry(key)) {
        Ok(Value::Object(m)) => m
            .into_iter()
            .next()
            .map(|(k, _)| k)
            .ok_or_else(|| Error::Custom("a map key wrote no key".to_owned())),
        Ok(_) => Err(Error::Custom("a map key wrote no key".to_owned())),
        Err(e) => Err(Error::Custom(e.to_string())),
    }
}

/// A map key as `to_value` writes it, the common ones directly: strings, and integers as
/// their digits; [`Error::Whole`] for any other, which [`serde_json_key`] writes.
pub(super) struct KeySer;

macro_rules! key_int {
    ($($f:ident: $t:ty),*) => {$(
        fn $f(self, v: $t) -> Result<String, Error> {
            Ok(v.to_string())
        }
    )*};
}

macro_rules! key_whole {
    ($($f:ident: $t:ty),*) => {$(
        fn $f(self, _: $t) -> Result<String, Error> {
            Err(Error::Whole)
        }
    )*};
}

impl ser::Serializer for KeySer {
    type Ok = String;
    type Error = Error;
    type SerializeSeq = Impossible<String, Error>;
    type SerializeTuple = Impossible<String, Error>;
    type SerializeTupleStruct = Impossible<String, Error>;
    type SerializeTupleVariant = Impossible<String, Error>;
    type SerializeMap = Impossible<String, Error>;
    type SerializeStruct = Impossible<String, Error>;
    type SerializeStructVariant = Impossible<String, Error>;

    key_int!(serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
        serialize_u8: u8, serialize_u16: u16, serialize_u32: u32, serialize_u64: u64);
    key_whole!(serialize_bool: bool, serialize_i128: i128, serialize_u128: u128,
        serialize_f32: f32, serialize_f64: f64, serialize_bytes: &[u8]);

    fn serialize_char(self, v: char) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_str(self, v: &str) -> Result<String, Error> {
        Ok(v.to_owned())
    }
    fn serialize_none(self) -> Result<String, Error> {
        Err(Error::Whole)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<String, Error> {
        Err(Error::Whole)
    }
    fn serialize_unit(self) -> Result<String, Error> {
        Err(Error::Whole)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<String, Error> {
        Err(Error::Whole)
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<String, Error> {
        Ok(variant.to_owned())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<String, Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<String, Error> {
        Err(Error::Whole)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err(Error::Whole)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Error> {
        Err(Error::Whole)
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Error> {
        Err(Error::Whole)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(Error::Whole)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Err(Error::Whole)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, Error> {
        Err(Error::Whole)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(Error::Whole)
    }
}
