//! Contract rules the source decides, one function per rule id.

use neuralis_model::RuleId;
use neuralis_model::contract::rules::RESERVED_INPUT_KEYS;
use neuralis_model::validate::{ErrorKind, Validator};
use proc_macro2::Span;
use serde_json::Value;
use syn::spanned::Spanned as _;

use crate::ast::{Container, Data, Field, Renamed, Style};
use crate::attr::schema::SchemaAttrs;
use crate::attr::{Direction, Spanned};
use crate::report::Ctxt;
use crate::types::{Len, TypeKind};

/// Runs every check on a parsed container. The macro and the build emitter run the same
/// checks: the macro reports the errors with their spans, the emitter skips an item
/// that has any (the compiler shows the macro's message).
pub fn check(cx: &Ctxt, cont: &Container) {
    check_input_not_struct(cx, cont);
    check_reserved_input_key(cx, cont);
    check_elicitation_form(cx, cont);
    check_shape(cx, cont);
    check_header_attr(cx, cont);
    for field in all_fields(cont) {
        check_unsupported_type(cx, field);
        check_serde_with(cx, field);
        check_schema_attr(cx, field);
    }
}

/// Runs the checks that apply to an output (`#[derive(ToolOutput)]`, a model built for
/// [`Direction::Serialize`]): the root-input rules do not.
pub fn check_output(cx: &Ctxt, cont: &Container) {
    check_shape(cx, cont);
    for field in all_fields(cont) {
        if let Some(header) = &field.schema.header {
            cx.error_at(
                RuleId::HeaderAttr,
                header.span,
                "`header` mirrors an argument of a tool's input, not a field of its output",
                "leave `header` off an output's field",
            );
        }
    }
    for field in all_fields(cont) {
        check_unsupported_type(cx, field);
        check_serde_with(cx, field);
        check_schema_attr(cx, field);
    }
}

/// Every field of the container, across variants.
pub fn all_fields<'c, 'a>(cont: &'c Container<'a>) -> Box<dyn Iterator<Item = &'c Field<'a>> + 'c> {
    match &cont.data {
        Data::Struct(_, fields) => Box::new(fields.iter()),
        Data::Enum(variants) => Box::new(variants.iter().flat_map(|v| v.fields.iter())),
    }
}

// input-not-struct: a type marked `#[schema(root)]` is a tool's input, so it must be a
// struct with named fields (the platform requires an object root).
fn check_input_not_struct(cx: &Ctxt, cont: &Container) {
    let Some(root) = cont.schema.root else {
        return;
    };
    let ok = matches!(cont.data, Data::Struct(Style::Named, _)) && cont.serde.transparent.is_none();
    if !ok {
        cx.error_at(
            RuleId::InputNotStruct,
            root,
            format_args!(
                "`{}` is marked `#[schema(root)]` but is not a struct with named fields",
                cont.ident
            ),
            RuleId::InputNotStruct.rule().hint,
        );
    }
}

/// The `format`s an elicitation form's string field may have (MCP's elicitation schema).
pub const ELICITATION_FORMATS: &[&str] = &["email", "uri", "date", "date-time"];

// elicitation-form: a type marked `#[schema(elicitation)]` is a form a client shows a
// person (MCP elicitation): an object of primitive fields (strings, numbers, integers,
// booleans, and unit enums, themselves marked, whose names are the choice), with only the
// keywords MCP's elicitation schema has. Anything else no client can show. A field of
// another type is checked where the derive expands, by its type implementing
// `ElicitChoice` (which it cannot see from here).
fn check_elicitation_form(cx: &Ctxt, cont: &Container) {
    let Some(mark) = cont.schema.elicitation else {
        return;
    };
    let rule = RuleId::ElicitationForm;
    let hint = rule.rule().hint;
    match &cont.data {
        Data::Enum(variants) => {
            if cont.serde.untagged.is_some() || cont.serde.tag.is_some() {
                cx.error_at(
                    rule,
                    mark,
                    format_args!(
                        "`{}` is a choice in a form, which is one of its names: `untagged` or `tag` make its values objects",
                        cont.ident
                    ),
                    "remove `untagged` / `tag`: a choice is a unit enum",
                );
            }
            for v in variants
                .iter()
                .filter(|v| v.serde.skip.is_none() && v.style != Style::Unit)
            {
                cx.error_at(
                    rule,
                    v.original.ident.span(),
                    format_args!(
                        "variant `{}` carries data: a choice in a form is one of the enum's names",
                        v.original.ident
                    ),
                    "make every variant a unit variant",
                );
            }
        }
        Data::Struct(Style::Named, fields) if cont.serde.transparent.is_none() => {
            for f in fields.iter().filter(|f| !f.is_skipped()) {
                check_elicitation_field(cx, f);
            }
        }
        Data::Struct(..) => cx.error_at(
            rule,
            mark,
            format_args!(
                "`{}` is marked `#[schema(elicitation)]` but is not a struct with named fields: a form is an object",
                cont.ident
            ),
            hint,
        ),
    }
}

fn check_elicitation_field(cx: &Ctxt, f: &Field) {
    let rule = RuleId::ElicitationForm;
    let name = f
        .original
        .ident
        .as_ref()
        .map_or_else(|| f.name.value.clone(), ToString::to_string);
    if let Some(span) = f.serde.flatten {
        cx.error_at(
            rule,
            span,
            format_args!("a form is flat: `#[serde(flatten)]` brings another type's fields into `{name}`'s form"),
            "write the fields in the form itself",
        );
        return;
    }
    if let Some(with) = &f.schema.with {
        cx.error_at(
            rule,
            with.span,
            format_args!("field `{name}` of a form takes its schema from its own type, not `#[schema(with = ...)]`"),
            "give the field a primitive type, or a unit enum marked `#[schema(elicitation)]`",
        );
        return;
    }
    let what = match f.kind.unwrap_option() {
        TypeKind::Bool
        | TypeKind::Int { .. }
        | TypeKind::Float
        | TypeKind::Str
        | TypeKind::Char
        | TypeKind::Named { .. }
        | TypeKind::Unsupported(_) => None,
        TypeKind::Format { format, .. } if ELICITATION_FORMATS.contains(format) => None,
        TypeKind::Format { format: "", .. } => {
            Some("a string with a pattern, which a form does not carry".to_owned())
        }
        TypeKind::Format { format, .. } => Some(format!(
            "a string of format `{format}`; a form's strings have format email, uri, date or date-time"
        )),
        // SEP-1330's multi-select: a list of a choice (its item checked where the derive
        // expands, by its type implementing `ElicitChoice`).
        TypeKind::Seq {
            item,
            unique: false,
            len: Len::Any,
        } if matches!(item.kind, TypeKind::Named { .. }) => None,
        TypeKind::Seq { .. } => Some(
            "a list; a form's fields are single values, or a `Vec` of a unit enum marked `#[schema(elicitation)]` (a multi-select)".to_owned(),
        ),
        TypeKind::Map(_) | TypeKind::JsonMap | TypeKind::Value => {
            Some("an object or any JSON value; a form's fields are single values".to_owned())
        }
        TypeKind::Option(_) | TypeKind::Pointer(_) => None,
    };
    if let Some(what) = what {
        cx.error_at(
            rule,
            f.original.ty.span(),
            format_args!("field `{name}` of a form is {what}"),
            rule.rule().hint,
        );
    }
    check_elicitation_keywords(cx, f, &name);
}

/// The keywords of a form's field: only those MCP's elicitation schema has (`min_items`
/// and `max_items` on a multi-select), and an elicitation `format`.
fn check_elicitation_keywords(cx: &Ctxt, f: &Field, name: &str) {
    let rule = RuleId::ElicitationForm;
    let s = &f.schema;
    let many = matches!(f.kind.unwrap_option(), TypeKind::Seq { .. });
    let refused: [(&str, Option<Span>); 9] = [
        ("pattern", s.pattern.as_ref().map(|v| v.span)),
        (
            "exclusive_minimum",
            s.exclusive_minimum.as_ref().map(|v| v.span),
        ),
        (
            "exclusive_maximum",
            s.exclusive_maximum.as_ref().map(|v| v.span),
        ),
        ("multiple_of", s.multiple_of.as_ref().map(|v| v.span)),
        // A multi-select has `minItems` and `maxItems`.
        (
            "min_items",
            s.min_items.as_ref().filter(|_| !many).map(|v| v.span),
        ),
        (
            "max_items",
            s.max_items.as_ref().filter(|_| !many).map(|v| v.span),
        ),
        ("unique_items", s.unique_items),
        ("examples", s.examples.as_ref().map(|v| v.span)),
        ("deprecated", s.deprecated),
    ];
    for (key, span) in refused {
        if let Some(span) = span {
            cx.error_at(
                rule,
                span,
                format_args!("`{key}` on field `{name}`: MCP's elicitation schema has no such keyword"),
                "a form's field takes `title`, `description`, `default`, `format` (email, uri, date, date-time), `min_length`, `max_length`, `minimum` and `maximum`; a multi-select `min_items` and `max_items`",
            );
        }
    }
    if let Some(format) = &s.format
        && !ELICITATION_FORMATS.contains(&format.value.as_str())
    {
        cx.error_at(
            rule,
            format.span,
            format_args!(
                "`format = \"{}\"` on field `{name}`: a form's strings have format email, uri, date or date-time",
                format.value
            ),
            "use one of those formats, or none",
        );
    }
}

// reserved-input-key: no root property takes a session-context name, after serde
// renaming. Keys brought in by `#[serde(flatten)]` are checked by a generated `const`
// assertion over the flattened type's `ROOT_KEYS`, which works across crates.
fn check_reserved_input_key(cx: &Ctxt, cont: &Container) {
    if !cont.is_root() {
        return;
    }
    let Data::Struct(Style::Named, fields) = &cont.data else {
        return;
    };
    for field in fields
        .iter()
        .filter(|f| !f.is_skipped() && f.serde.flatten.is_none())
    {
        let name = &field.name.value;
        if !RESERVED_INPUT_KEYS.contains(&name.as_str()) {
            continue;
        }
        let how = match field.name.how {
            Renamed::Ident => String::new(),
            Renamed::Attr => " (from `#[serde(rename)]`)".to_owned(),
            Renamed::Rule(rule) => format!(" (from `rename_all = \"{}\"`)", rule.as_str()),
        };
        cx.error_at(
            RuleId::ReservedInputKey,
            field.name.span,
            format_args!("root property `{name}`{how} uses a reserved session-context name"),
            RuleId::ReservedInputKey.rule().hint,
        );
    }
}

// header-attr: `#[schema(header = "Name")]` mirrors a root property in an HTTP header, so
// it marks a named field serde reads from the object itself (not a flattened or skipped
// one, not a variant's), and no two of a type's header names are equal ignoring case
// (HTTP header names are). The name itself is checked where it is parsed; its type, and
// that the type is not nested in another, by generated `const` assertions.
fn check_header_attr(cx: &Ctxt, cont: &Container) {
    let named = matches!(cont.data, Data::Struct(Style::Named, _))
        && cont.serde.transparent.is_none()
        && cont.schema.elicitation.is_none();
    let mut seen: Vec<&str> = Vec::new();
    for field in all_fields(cont) {
        let Some(header) = &field.schema.header else {
            continue;
        };
        let refusal = if !named {
            Some((
                "`header` marks a property of a tool's input: a named field of a struct (not a variant's, a transparent struct's or a form's)",
                "move `header` to the field of the tool's input that holds the value",
            ))
        } else if field.is_skipped() {
            Some((
                "`header` on a field serde never reads",
                "leave `header` off a skipped field",
            ))
        } else if field.serde.flatten.is_some() {
            Some((
                "`header` on a flattened field: its properties are the root's own",
                "mark the properties in the flattened type, each with its own `header`",
            ))
        } else if !field.is_required(cont.serde.default.is_some()) {
            Some((
                "`header` on a property a call may leave out: a strict model sends every key, `null` for nothing, and a header carries no `null` (SEP-2243 wants the property's own `type`)",
                "mirror a required property (no `Option`, no serde `default`) in the header, or leave `header` off",
            ))
        } else {
            None
        };
        if let Some((message, help)) = refusal {
            cx.error_at(RuleId::HeaderAttr, header.span, message, help);
            continue;
        }
        if let Some(first) = seen.iter().find(|h| h.eq_ignore_ascii_case(&header.value)) {
            cx.error_at(
                RuleId::HeaderAttr,
                header.span,
                format_args!(
                    "the header `{}` mirrors two properties (`{first}` is the same name: header names ignore case)",
                    header.value
                ),
                "give each property its own header name",
            );
            continue;
        }
        seen.push(&header.value);
    }
}

// Shapes with no draft-07 schema, or none that serde reads the same way.
fn check_shape(cx: &Ctxt, cont: &Container) {
    match &cont.data {
        Data::Struct(Style::Tuple, _) if cont.serde.transparent.is_none() => cx.error_with_help(
            RuleId::UnsupportedType,
            cont.ident,
            "a tuple struct is a fixed-position array, which draft-07 cannot describe without tuple `items`",
            "use a struct with named fields",
        ),
        Data::Enum(variants) => {
            for v in variants.iter().filter(|v| v.serde.skip.is_none()) {
                if v.style == Style::Tuple {
                    cx.error_with_help(
                        RuleId::UnsupportedType,
                        &v.original.ident,
                        format_args!(
                            "tuple variant `{}` is a fixed-position array, which draft-07 cannot describe without tuple `items`",
                            v.original.ident
                        ),
                        "use a struct variant with named fields",
                    );
                }
                if let Some(span) = v.serde.with {
                    let (message, help) = match v.serde.direction {
                        Direction::Deserialize => (
                            "`with`/`deserialize_with` on a variant changes what serde reads",
                            "move the custom deserializer to a field and give it `#[schema(with = ...)]`",
                        ),
                        Direction::Serialize => (
                            "`with`/`serialize_with` on a variant changes what serde writes",
                            "move the custom serializer to a field and give it `#[schema(with = ...)]`",
                        ),
                    };
                    cx.error_at(RuleId::SerdeUnsupported, span, message, help);
                }
            }
        }
        _ => {}
    }
}

// unsupported-type: a field type with no schema, named with the fix.
fn check_unsupported_type(cx: &Ctxt, field: &Field) {
    // With a custom deserializer the field's own type says nothing (`check_serde_with`).
    if field.is_skipped() || field.serde.with.is_some() {
        return;
    }
    if let Some(why) = field.kind.unsupported() {
        let name = field
            .original
            .ident
            .as_ref()
            .map_or_else(|| field.name.value.clone(), ToString::to_string);
        cx.error_with_help(
            RuleId::UnsupportedType,
            &field.original.ty,
            format_args!("field `{name}` has a type with no schema: {why}"),
            match field.serde.direction {
                Direction::Deserialize => "change the type, or give the field `#[schema(with = T)]` naming a `ToolInput` type with the same JSON form",
                Direction::Serialize => "change the type, or give the field `#[schema(with = T)]` naming a `ToolOutput` type with the same JSON form",
            },
        );
    }
}

// serde-unsupported: a custom deserializer decides what is accepted; the schema must come
// from `#[schema(with = ...)]`, never from the field's Rust type.
fn check_serde_with(cx: &Ctxt, field: &Field) {
    if let (Some(span), None) = (field.serde.with, &field.schema.with) {
        let (message, help) = match field.serde.direction {
            Direction::Deserialize => (
                "a custom deserializer makes serde accept another shape than the field's type",
                "add `#[schema(with = T)]` naming a `ToolInput` type with the shape the deserializer reads",
            ),
            Direction::Serialize => (
                "a custom serializer makes serde write another shape than the field's type",
                "add `#[schema(with = T)]` naming a `ToolOutput` type with the shape the serializer writes",
            ),
        };
        cx.error_at(RuleId::SerdeUnsupported, span, message, help);
    }
}

fn num(n: &Spanned<serde_json::Number>) -> f64 {
    n.value.as_f64().unwrap_or(f64::NAN)
}

// schema-attr: keys that do not fit the field's type, contradictory bounds, and a
// `default` or example that the schema itself would refuse.
fn check_schema_attr(cx: &Ctxt, field: &Field) {
    let s = &field.schema;
    if let Some(span) = field.serde.flatten {
        if !s.keywords().is_empty() || s.with.is_some() {
            cx.error_at(
                RuleId::SchemaAttr,
                span,
                "`#[schema(...)]` keys on a `#[serde(flatten)]` field have no effect: its properties are merged",
                "put the keys on the flattened type's fields",
            );
        }
        return;
    }
    let kind = field.kind.unwrap_option();
    let ty_name = type_label(field);
    check_keys_fit_type(cx, s, kind, &ty_name);
    check_bounds_order(cx, s);
    if let Some(m) = &s.multiple_of
        && num(m) <= 0.0
    {
        cx.error_at(
            RuleId::SchemaAttr,
            m.span,
            "`multiple_of` must be greater than 0",
            "use a positive number",
        );
    }
    check_int_range(cx, s, kind);
    check_values_fit(cx, field, kind, &ty_name);
}

/// Number keys on a field that is not a number, string keys on one that is not a
/// string, item keys on one that is not an array. A named type or a `Value` may be any.
fn check_keys_fit_type(cx: &Ctxt, s: &SchemaAttrs, kind: &TypeKind, ty_name: &str) {
    let any = matches!(kind, TypeKind::Named { .. } | TypeKind::Value);
    let is_num = any || matches!(kind, TypeKind::Int { .. } | TypeKind::Float);
    let is_str = any
        || matches!(
            kind,
            TypeKind::Str | TypeKind::Char | TypeKind::Format { .. }
        );
    let is_seq = any || matches!(kind, TypeKind::Seq { .. });
    let wrong = |key: &str, span: Span, what: &str| {
        cx.error_at(
            RuleId::SchemaAttr,
            span,
            format_args!("`{key}` applies to {what}, not to `{ty_name}`"),
            "remove the key, or change the field's type",
        );
    };
    for (key, v) in [
        ("minimum", &s.minimum),
        ("maximum", &s.maximum),
        ("exclusive_minimum", &s.exclusive_minimum),
        ("exclusive_maximum", &s.exclusive_maximum),
        ("multiple_of", &s.multiple_of),
    ] {
        if let (Some(v), false) = (v, is_num) {
            wrong(key, v.span, "numbers");
        }
    }
    for (key, v) in [("min_length", &s.min_length), ("max_length", &s.max_length)] {
        if let (Some(v), false) = (v, is_str) {
            wrong(key, v.span, "strings");
        }
    }
    for (key, v) in [("pattern", &s.pattern), ("format", &s.format)] {
        if let (Some(v), false) = (v, is_str) {
            wrong(key, v.span, "strings");
        }
    }
    for (key, v) in [("min_items", &s.min_items), ("max_items", &s.max_items)] {
        if let (Some(v), false) = (v, is_seq) {
            wrong(key, v.span, "arrays and sets");
        }
    }
    if let (Some(span), false) = (s.unique_items, is_seq) {
        wrong("unique_items", span, "arrays");
    }
}

/// A lower bound above its upper bound (or equal to it, when either is exclusive): no
/// value is accepted. Reported at the upper bound.
fn check_bounds_order(cx: &Ctxt, s: &SchemaAttrs) {
    let order = |lo: Option<(&str, f64, Span)>, hi: Option<(&str, f64, Span)>, strict: bool| {
        if let (Some((lk, l, _)), Some((hk, h, span))) = (lo, hi)
            && (l > h || (strict && l >= h))
        {
            cx.error_at(
                RuleId::SchemaAttr,
                span,
                format_args!("`{lk} = {l}` is above `{hk} = {h}`: no value is accepted"),
                "swap or fix the bounds",
            );
        }
    };
    let n = |k: &'static str, v: &Option<Spanned<serde_json::Number>>| {
        v.as_ref().map(|v| (k, num(v), v.span))
    };
    let u =
        |k: &'static str, v: &Option<Spanned<u64>>| v.as_ref().map(|v| (k, v.value as f64, v.span));
    order(n("minimum", &s.minimum), n("maximum", &s.maximum), false);
    order(
        n("exclusive_minimum", &s.exclusive_minimum),
        n("exclusive_maximum", &s.exclusive_maximum),
        true,
    );
    order(
        n("minimum", &s.minimum),
        n("exclusive_maximum", &s.exclusive_maximum),
        true,
    );
    order(
        n("exclusive_minimum", &s.exclusive_minimum),
        n("maximum", &s.maximum),
        true,
    );
    order(
        u("min_length", &s.min_length),
        u("max_length", &s.max_length),
        false,
    );
    order(
        u("min_items", &s.min_items),
        u("max_items", &s.max_items),
        false,
    );
}

/// `minimum` and `maximum` outside the range of the field's integer type: serde refuses
/// such values.
fn check_int_range(cx: &Ctxt, s: &SchemaAttrs, kind: &TypeKind) {
    if let TypeKind::Int { name, min, max } = kind {
        for (key, v) in [("minimum", &s.minimum), ("maximum", &s.maximum)] {
            let Some(v) = v else { continue };
            let x = num(v);
            if x < *min as f64 || x > *max as f64 {
                cx.error_at(
                    RuleId::SchemaAttr,
                    v.span,
                    format_args!("`{key} = {x}` is outside the range of `{name}` ({min}..={max})"),
                    "serde refuses such values: use a wider integer type or a bound inside the range",
                );
            }
        }
    }
}

/// A `default` or an example that the field's own schema refuses (`fits`).
fn check_values_fit(cx: &Ctxt, field: &Field, kind: &TypeKind, ty_name: &str) {
    let s = &field.schema;
    if let Some(d) = &s.default
        && let Err(why) = fits(field, kind, &d.value)
    {
        cx.error_at(
            RuleId::SchemaAttr,
            d.span,
            format_args!("`default` does not fit `{ty_name}`: {why}"),
            "give a default the field's schema accepts",
        );
    }
    if let Some(examples) = &s.examples {
        for e in &examples.value {
            if let Err(why) = fits(field, kind, &e.value) {
                cx.error_at(
                    RuleId::SchemaAttr,
                    e.span,
                    format_args!("this example does not fit `{ty_name}`: {why}"),
                    "give examples the field's schema accepts",
                );
            }
        }
    }
}

fn type_label(field: &Field) -> String {
    crate::types::type_text(&field.original.ty)
}

/// Whether `value` fits a field of `kind` with the field's own keywords: the Rust type's
/// range and shape (`fits_kind`), then the keywords as the one draft-07 validator reads
/// them (`neuralis_model::validate`: exact numbers, lengths in code points, ECMA-262
/// patterns, the formats draft-07 asserts).
fn fits(field: &Field, kind: &TypeKind, value: &Value) -> Result<(), String> {
    fits_kind(kind, value)?;
    let mut keywords = field.schema.keywords();
    let compiled = match Validator::compile(&Value::Object(keywords.clone())) {
        Ok(v) => v,
        // A pattern the built-in engine does not run (lookaround...) is left to the
        // general validator at package load; the other keywords are still checked here.
        Err(_) => {
            keywords.remove("pattern");
            match Validator::compile(&Value::Object(keywords)) {
                Ok(v) => v,
                Err(_) => return Ok(()),
            }
        }
    };
    let Some(e) = compiled.first_error(value) else {
        return Ok(());
    };
    let s = &field.schema;
    let shown = |v: &Option<Spanned<serde_json::Number>>| {
        v.as_ref().map_or_else(String::new, |v| v.value.to_string())
    };
    Err(match e.kind {
        ErrorKind::Minimum => format!("{value} is below `minimum = {}`", shown(&s.minimum)),
        ErrorKind::Maximum => format!("{value} is above `maximum = {}`", shown(&s.maximum)),
        ErrorKind::ExclusiveMinimum => format!(
            "{value} is not above `exclusive_minimum = {}`",
            shown(&s.exclusive_minimum)
        ),
        ErrorKind::ExclusiveMaximum => format!(
            "{value} is not below `exclusive_maximum = {}`",
            shown(&s.exclusive_maximum)
        ),
        ErrorKind::MultipleOf => format!(
            "{value} is not a multiple of `multiple_of = {}`",
            shown(&s.multiple_of)
        ),
        ErrorKind::MinLength => format!("{value} is shorter than `min_length`"),
        ErrorKind::MaxLength => format!("{value} is longer than `max_length`"),
        ErrorKind::Pattern => format!("{value} does not match `pattern`"),
        ErrorKind::Format => format!(
            "{value} is not a `{}`",
            s.format.as_ref().map_or("", |f| f.value.as_str())
        ),
        ErrorKind::MinItems => "too few items for `min_items`".into(),
        ErrorKind::MaxItems => "too many items for `max_items`".into(),
        ErrorKind::UniqueItems => "the items are not distinct, as `unique_items` asks".into(),
        _ => e.message,
    })
}

fn fits_kind(kind: &TypeKind, value: &Value) -> Result<(), String> {
    let bad = |want: &str| Err(format!("expected {want}, found `{value}`"));
    match kind.unwrap_option() {
        TypeKind::Bool if !value.is_boolean() => bad("`true` or `false`"),
        TypeKind::Int { name, min, max } => {
            let ok = value
                .as_i64()
                .map(i128::from)
                .is_some_and(|v| v >= *min && (v < 0 || v as u128 <= *max))
                || value
                    .as_u64()
                    .is_some_and(|v| u128::from(v) <= *max && *min <= i128::from(v));
            if ok {
                Ok(())
            } else {
                bad(&format!("an integer in the range of `{name}`"))
            }
        }
        TypeKind::Float if !value.is_number() => bad("a number"),
        TypeKind::Str | TypeKind::Format { .. } if !value.is_string() => bad("a string"),
        TypeKind::Char if value.as_str().is_none_or(|s| s.chars().count() != 1) => {
            bad("a string of one character")
        }
        TypeKind::Seq { item, unique, len } => {
            let Some(items) = value.as_array() else {
                return bad("an array");
            };
            if let Len::Fixed(n) = len
                && items.len() != *n
            {
                return bad(&format!("an array of {n} items"));
            }
            if *unique {
                for (i, a) in items.iter().enumerate() {
                    if items[..i].contains(a) {
                        return bad("an array of distinct items");
                    }
                }
            }
            items.iter().try_for_each(|i| fits_kind(&item.kind, i))
        }
        TypeKind::Map(_) | TypeKind::JsonMap if !value.is_object() => bad("an object"),
        _ => Ok(()),
    }
}

/// The span of the field's name token, or its type for a tuple field.
#[must_use]
pub fn field_span(field: &Field) -> Span {
    field
        .original
        .ident
        .as_ref()
        .map_or_else(|| field.original.ty.span(), syn::Ident::span)
}
