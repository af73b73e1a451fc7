//! A parameter struct's fields by name, read through its `Serialize` impl, so that
//! [`crate::check::specs`] can check every field against the spec of the same name without a
//! hand-kept list of fields (and without a JSON dependency).
//!
//! Only the top-level fields of a struct (or of a newtype around one, as `#[serde(transparent)]`
//! writes it) are read. A field that is not a scalar (a number, a boolean, a string or a unit
//! enum variant) is reported as `None`.

use std::fmt;

use serde::Serialize;
use serde::ser::{self, Impossible, SerializeStruct};

use crate::ParamValue;

/// The fields of `value` in declaration order: `(name, Some(value))` for scalars, `None` for
/// the rest. Empty for anything that is not a struct (a unit struct has no fields).
pub(crate) fn read<T: Serialize + ?Sized>(value: &T) -> Vec<(&'static str, Option<ParamValue>)> {
    let mut fields = Vec::new();
    // A value that is not a struct is an error of the reader, which means: no fields.
    let _ = value.serialize(Fields(&mut fields));
    fields
}

/// Why a value was not read: it is not what the reader reads.
#[derive(Debug)]
pub(crate) struct NotRead;

impl fmt::Display for NotRead {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a scalar parameter field")
    }
}

impl std::error::Error for NotRead {}

impl ser::Error for NotRead {
    fn custom<M: fmt::Display>(_: M) -> Self {
        NotRead
    }
}

/// Reads the fields of a struct.
struct Fields<'a>(&'a mut Vec<(&'static str, Option<ParamValue>)>);

/// The fields of the struct being read.
struct StructFields<'a>(&'a mut Vec<(&'static str, Option<ParamValue>)>);

impl SerializeStruct for StructFields<'_> {
    type Ok = ();
    type Error = NotRead;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), NotRead> {
        self.0.push((key, value.serialize(Scalar).ok()));
        Ok(())
    }

    fn end(self) -> Result<(), NotRead> {
        Ok(())
    }
}

/// Refuses a value that is not a struct.
macro_rules! not_read {
    ($($name:ident($($arg:ty),*)),* $(,)?) => {$(
        fn $name(self, $(_: $arg),*) -> Result<Self::Ok, NotRead> {
            Err(NotRead)
        }
    )*};
}

impl<'a> ser::Serializer for Fields<'a> {
    type Ok = ();
    type Error = NotRead;
    type SerializeSeq = Impossible<(), NotRead>;
    type SerializeTuple = Impossible<(), NotRead>;
    type SerializeTupleStruct = Impossible<(), NotRead>;
    type SerializeTupleVariant = Impossible<(), NotRead>;
    type SerializeMap = Impossible<(), NotRead>;
    type SerializeStruct = StructFields<'a>;
    type SerializeStructVariant = Impossible<(), NotRead>;

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<StructFields<'a>, NotRead> {
        Ok(StructFields(self.0))
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), NotRead> {
        value.serialize(self)
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<(), NotRead> {
        Ok(())
    }

    fn serialize_unit(self) -> Result<(), NotRead> {
        Ok(())
    }

    not_read!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit_variant(&'static str, u32, &'static str),
    );

    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), NotRead> {
        Err(NotRead)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), NotRead> {
        Err(NotRead)
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, NotRead> {
        Err(NotRead)
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, NotRead> {
        Err(NotRead)
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, NotRead> {
        Err(NotRead)
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, NotRead> {
        Err(NotRead)
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, NotRead> {
        Err(NotRead)
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, NotRead> {
        Err(NotRead)
    }
}

/// Reads one scalar field.
struct Scalar;

impl ser::Serializer for Scalar {
    type Ok = ParamValue;
    type Error = NotRead;
    type SerializeSeq = Impossible<ParamValue, NotRead>;
    type SerializeTuple = Impossible<ParamValue, NotRead>;
    type SerializeTupleStruct = Impossible<ParamValue, NotRead>;
    type SerializeTupleVariant = Impossible<ParamValue, NotRead>;
    type SerializeMap = Impossible<ParamValue, NotRead>;
    type SerializeStruct = Impossible<ParamValue, NotRead>;
    type SerializeStructVariant = Impossible<ParamValue, NotRead>;

    fn serialize_bool(self, v: bool) -> Result<ParamValue, NotRead> {
        Ok(ParamValue::Bool(v))
    }

    fn serialize_i8(self, v: i8) -> Result<ParamValue, NotRead> {
        Ok(ParamValue::Num(f64::from(v)))
    }

    fn serialize_i16(self, v: i16) -> Result<ParamValue, NotRead> {
        Ok(ParamValue::Num(f64::from(v)))
    }

    fn serialize_i32(self, v: i32) -> Result<ParamValue, NotRead> {
        Ok(ParamValue::Num(f64::from(v)))
    }

    fn serialize_i64(self, v: i64) -> Result<ParamValue, NotRead> {
        Ok(ParamValue::Num(v as f64))
    }

    fn serialize_u8(self, v: u8) -> Result<ParamValue, NotRead> {
        Ok(ParamValue::Num(f64::from(v)))
    }

    fn serialize_u16(self, v: u16) -> Result<ParamValue, NotRead> {
        Ok(ParamValue::Num(f64::from(v)))
    }

    fn serialize_u32(self, v: u32) -> Result<ParamValue, NotRead> {
        Ok(ParamValue::Num(f64::from(v)))
    }

    fn serialize_u64(self, v: u64) -> Result<ParamValue, NotRead> {
        Ok(ParamValue::Num(v as f64))
    }

    fn serialize_f32(self, v: f32) -> Result<ParamValue, NotRead> {
        Ok(ParamValue::Num(f64::from(v)))
    }

    fn serialize_f64(self, v: f64) -> Result<ParamValue, NotRead> {
        Ok(ParamValue::Num(v))
    }

    fn serialize_char(self, v: char) -> Result<ParamValue, NotRead> {
        Ok(ParamValue::Word(v.to_string()))
    }

    fn serialize_str(self, v: &str) -> Result<ParamValue, NotRead> {
        Ok(ParamValue::Word(v.to_owned()))
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<ParamValue, NotRead> {
        Ok(ParamValue::Word(variant.to_owned()))
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<ParamValue, NotRead> {
        value.serialize(self)
    }

    not_read!(
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
    );

    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<ParamValue, NotRead> {
        Err(NotRead)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<ParamValue, NotRead> {
        Err(NotRead)
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, NotRead> {
        Err(NotRead)
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, NotRead> {
        Err(NotRead)
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, NotRead> {
        Err(NotRead)
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, NotRead> {
        Err(NotRead)
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, NotRead> {
        Err(NotRead)
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, NotRead> {
        Err(NotRead)
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, NotRead> {
        Err(NotRead)
    }
}
