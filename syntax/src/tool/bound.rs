//! `bound(...)` in `#[tool(...)]`: the tool's own caps beside the package's
//! (`PackageBuilder::caps`), and the input argument a caller sends to get what a typed
//! result left out. The toolkit's own (`bound-attr`): it goes into the handler's
//! descriptor, never into the tool file's `x-neuralis`, whose keys are the platform's.
//!
//! ```
//! use neuralis_syntax::{Ctxt, tool::parse_tool};
//!
//! let item: syn::ItemFn = syn::parse_quote! {
//!     /// Lists the audit log.
//!     fn audit_export(input: Export) -> Entries { todo!() }
//! };
//! let cx = Ctxt::new();
//! let args = quote::quote!(annotations(category = "read"), bound(array_len = 50, more = "cursor"));
//! let tool = parse_tool(&cx, args, &item);
//! cx.check().expect("no errors");
//! assert_eq!(tool.bound.cap("array_len"), Some(50));
//! assert_eq!(tool.bound.more.as_ref().map(|m| m.value.as_str()), Some("cursor"));
//! assert!(!tool.x_neuralis().to_string().contains("array_len"));
//! ```

use neuralis_model::RuleId;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned as _;
use syn::{Expr, Lit};

use crate::attr::{Spanned, did_you_mean};
use crate::report::Ctxt;

/// The attribute's key.
pub const BOUND: &str = "bound";

/// The caps a tool may set, as `BoundCaps` names its fields.
pub const CAPS: [&str; 5] = [
    "text_chars",
    "array_len",
    "string_chars",
    "structured_bytes",
    "blob_bytes",
];

/// The key naming the argument that asks for more.
pub const MORE: &str = "more";

/// The key saying what the marker tells the caller to send in [`MORE`]'s argument.
pub const MORE_VALUE: &str = "more_value";

/// The values [`MORE_VALUE`] takes: `offset`, the call's own value of the argument (0 when
/// it sent none) plus the items kept of the array that was cut.
pub const MORE_VALUES: [&str; 1] = ["offset"];

/// What `bound(...)` declares.
#[derive(Debug, Clone, Default)]
pub struct Bound {
    /// Whether `bound(...)` was written.
    pub written: bool,
    /// The caps given (a name of [`CAPS`]), each at its value's token.
    pub caps: Vec<(&'static str, Spanned<u64>)>,
    /// `more = "cursor"`: the root property (serde name) a caller sends for more.
    pub more: Option<Spanned<String>>,
    /// `more_value = "offset"`: the marker says the value to send, the next offset (an
    /// integer argument), at the value's token.
    pub more_value: Option<Spanned<String>>,
}

impl Bound {
    /// The cap `name` gives, when given.
    #[must_use]
    pub fn cap(&self, name: &str) -> Option<u64> {
        self.caps
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.value)
    }
}

/// Reads `bound(...)` into `bound`, reporting each malformed entry (`bound-attr`) at its
/// token and reading the rest.
pub(super) fn parse(cx: &Ctxt, meta: &ParseNestedMeta, bound: &mut Bound) -> syn::Result<()> {
    let span = meta.path.span();
    if bound.written {
        cx.error_at(
            RuleId::BoundAttr,
            span,
            "`bound` is given twice",
            "give one `bound(...)` with every cap in it",
        );
    }
    bound.written = true;
    if !meta.input.peek(syn::token::Paren) {
        super::parse::skip_value(meta)?;
        cx.error_at(
            RuleId::BoundAttr,
            span,
            "`bound` takes a list: `bound(array_len = 50, more = \"cursor\")`",
            RuleId::BoundAttr.rule().hint,
        );
        return Ok(());
    }
    meta.parse_nested_meta(|entry| {
        let key = entry
            .path
            .get_ident()
            .map_or_else(String::new, ToString::to_string);
        let at = entry.path.span();
        let expr: Option<Expr> = if entry.input.peek(syn::Token![=]) {
            Some(entry.value()?.parse()?)
        } else {
            super::parse::skip_value(&entry)?;
            None
        };
        let Some(expr) = expr else {
            cx.error_at(
                RuleId::BoundAttr,
                at,
                format_args!("`{key}` takes a value: `{key} = ...`"),
                RuleId::BoundAttr.rule().hint,
            );
            return Ok(());
        };
        if key == MORE_VALUE {
            more_value(cx, at, &expr, bound);
            return Ok(());
        }
        if key == MORE {
            more(cx, at, &expr, bound);
            return Ok(());
        }
        cap(cx, &key, at, &expr, bound);
        Ok(())
    })?;
    if let (Some(value), None) = (&bound.more_value, &bound.more) {
        cx.error_at(
            RuleId::BoundAttr,
            value.span,
            "`more_value` says what to send in `more`'s argument, and no `more` is given",
            "name the argument too: `bound(more = \"offset\", more_value = \"offset\")`",
        );
    }
    Ok(())
}

/// `more = "cursor"`: a non-empty serde name, given once.
fn more(cx: &Ctxt, at: proc_macro2::Span, expr: &Expr, bound: &mut Bound) {
    match expr {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Str(s), ..
        }) if !s.value().is_empty() => {
            if bound.more.is_some() {
                cx.error_at(
                    RuleId::BoundAttr,
                    at,
                    "`more` is given twice",
                    "name one argument",
                );
            }
            bound.more = Some(Spanned::new(s.value(), s.span()));
        }
        _ => cx.error(
            RuleId::BoundAttr,
            expr,
            "`more` takes the serde name of a root property of the input, for example `more = \"cursor\"`",
        ),
    }
}

/// A cap: a key of [`CAPS`] (else "did you mean" among every key), a positive integer,
/// given once.
fn cap(cx: &Ctxt, key: &str, at: proc_macro2::Span, expr: &Expr, bound: &mut Bound) {
    let Some(name) = CAPS.iter().copied().find(|c| *c == key) else {
        let mut keys = CAPS.to_vec();
        keys.extend([MORE, MORE_VALUE]);
        let help = did_you_mean(key, &keys).map_or_else(
            || format!("the keys of `bound(...)` are `{}`", keys.join("`, `")),
            |k| format!("did you mean `{k}`?"),
        );
        cx.error_at(
            RuleId::BoundAttr,
            at,
            format_args!("unknown key `{key}` in `bound(...)`"),
            help,
        );
        return;
    };
    let value = match expr {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Int(n), ..
        }) => n.base10_parse::<u64>().ok().filter(|n| *n > 0),
        _ => None,
    };
    let Some(value) = value else {
        cx.error(
            RuleId::BoundAttr,
            expr,
            format_args!("`{name}` takes a positive integer, for example `{name} = 50`"),
        );
        return;
    };
    if bound.cap(name).is_some() {
        cx.error_at(
            RuleId::BoundAttr,
            at,
            format_args!("`{name}` is given twice"),
            "give each cap once",
        );
    }
    bound.caps.push((name, Spanned::new(value, expr.span())));
}

/// `more_value = "offset"`: one of [`MORE_VALUES`], given once.
fn more_value(cx: &Ctxt, at: proc_macro2::Span, expr: &Expr, bound: &mut Bound) {
    let Expr::Lit(syn::ExprLit {
        lit: Lit::Str(s), ..
    }) = expr
    else {
        cx.error(
            RuleId::BoundAttr,
            expr,
            "`more_value` takes a string: `more_value = \"offset\"`",
        );
        return;
    };
    let value = s.value();
    if !MORE_VALUES.contains(&value.as_str()) {
        let help = did_you_mean(&value, &MORE_VALUES).map_or_else(
            || {
                "`more_value = \"offset\"`: the marker says the next offset, the call's own plus the items kept".to_owned()
            },
            |k| format!("did you mean `{k}`?"),
        );
        cx.error_at(
            RuleId::BoundAttr,
            s.span(),
            format_args!("`more_value` is `offset`, not `{value}`"),
            help,
        );
        return;
    }
    if bound.more_value.is_some() {
        cx.error_at(
            RuleId::BoundAttr,
            at,
            "`more_value` is given twice",
            "give it once",
        );
    }
    bound.more_value = Some(Spanned::new(value, s.span()));
}
