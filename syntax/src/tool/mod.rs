//! The model of a `#[tool(...)]` handler: the `x-neuralis` block in Rust form, the
//! handler's signature, and the checks the source decides.
//!
//! The macro and the build emitter both call [`parse_tool`], so they read one grammar:
//!
//! ```
//! use neuralis_syntax::{Ctxt, tool::parse_tool};
//!
//! let args = quote::quote! {
//!     family = "weather",
//!     annotations(read_only, category = "network"),
//!     ui(presentation = "card", card_type = "weather.result"),
//! };
//! let item: syn::ItemFn = syn::parse_quote! {
//!     /// Forecast the weather.
//!     async fn weather_forecast(input: Forecast) -> ToolResult { todo!() }
//! };
//! let cx = Ctxt::new();
//! let tool = parse_tool(&cx, args, &item);
//! cx.check().expect("no errors");
//! assert_eq!(tool.name.value, "weather_forecast");
//! assert_eq!(tool.description().as_deref(), Some("Forecast the weather."));
//! assert_eq!(
//!     tool.x_neuralis().to_string(),
//!     r#"{"family":"weather","annotations":{"readOnlyHint":true,"category":"network"},"ui":{"presentation":"card","cardType":"weather.result"}}"#,
//! );
//! ```

mod check;
mod parse;
mod render;
mod service;
mod sig;

use proc_macro2::Span;
use serde_json::Value;

use crate::attr::Spanned;
use crate::attr::docs::Docs;
use crate::report::Ctxt;

pub use check::check_tool;
pub use service::{
    Service, descriptor_name, is_tool_attr, is_tools_attr, method_as_fn, parse_service,
};
pub use sig::{Param, Returns};

/// A handler annotated with `#[tool(...)]`.
#[derive(Debug, Clone)]
pub struct Tool {
    /// The tool name: `name = "..."`, else the function's name (`r#` removed). The span
    /// is the string literal or the function's identifier.
    pub name: Spanned<String>,
    /// Whether the name was given with `name = "..."`.
    pub name_explicit: bool,
    /// The handler's identifier.
    pub ident: syn::Ident,
    /// For a method of a `#[neuralis::tools]` impl, the service it is called on (`None`
    /// for a free function, and for a method of an impl that cannot be a service).
    pub service: Option<Service>,
    /// The handler's visibility.
    pub vis: syn::Visibility,
    /// The input type (the parameter that is neither the context nor the abort signal).
    pub input: Option<syn::Type>,
    /// The parameters, in order.
    pub params: Vec<Param>,
    /// What the handler returns.
    pub returns: Returns,
    /// `async fn`.
    pub is_async: bool,
    /// The handler's doc comment: the tool's description.
    pub docs: Docs,
    /// `crate = "path"`: where the `neuralis` crate is, when renamed.
    pub krate: Option<Spanned<syn::Path>>,
    /// `family = "..."`.
    pub family: Option<Spanned<String>>,
    /// `operation = "..."`.
    pub operation: Option<Spanned<String>>,
    /// `transport = "..."`.
    pub transport: Option<Spanned<String>>,
    /// `defaults(key = value, ...)`, in order; keys are serde names.
    pub defaults: Option<Spanned<Vec<DefaultValue>>>,
    /// `annotations(...)`.
    pub annotations: Annotations,
    /// `ui(...)`.
    pub ui: Ui,
    /// `requires(...)`.
    pub requires: Requires,
    /// `ask_on_keys(...)`, in order, duplicates kept (the check reports them).
    pub ask_on_keys: Option<Spanned<Vec<Spanned<String>>>>,
}

/// One `defaults(key = value)` entry.
#[derive(Debug, Clone)]
pub struct DefaultValue {
    /// The root property, as serde names it.
    pub key: Spanned<String>,
    /// The value, as JSON; its span is the value expression.
    pub value: Spanned<Value>,
}

/// `annotations(...)`. The span of each key is its key token.
#[derive(Debug, Clone, Default)]
#[allow(missing_docs)] // each field is the key of the same name
pub struct Annotations {
    /// The `annotations` token, when written.
    pub span: Option<Span>,
    pub title: Option<Spanned<String>>,
    pub read_only: Option<Spanned<bool>>,
    pub destructive: Option<Spanned<bool>>,
    pub idempotent: Option<Spanned<bool>>,
    pub open_world: Option<Spanned<bool>>,
    pub category: Option<Spanned<String>>,
    pub estimated_duration_ms: Option<Spanned<u64>>,
    pub cancellable: Option<Spanned<bool>>,
}

/// `ui(...)`.
#[derive(Debug, Clone, Default)]
#[allow(missing_docs)] // each field is the key of the same name
pub struct Ui {
    /// The `ui` token, when written.
    pub span: Option<Span>,
    pub presentation: Option<Spanned<String>>,
    pub card_type: Option<Spanned<String>>,
    pub icon: Option<Spanned<String>>,
}

/// `requires(...)`.
#[derive(Debug, Clone, Default)]
#[allow(missing_docs)] // each field is the key of the same name
pub struct Requires {
    /// The `requires` token, when written.
    pub span: Option<Span>,
    pub features: Option<Spanned<Vec<Spanned<String>>>>,
    pub escalations: Option<Spanned<Vec<Spanned<String>>>>,
}

impl Tool {
    /// The tool's description: the handler's doc comment, joined as rustdoc joins it.
    /// `None` when there is none, or when it is only known when the user's crate compiles
    /// (`#[doc = include_str!(...)]`; see [`Tool::docs`]).
    #[must_use]
    pub fn description(&self) -> Option<String> {
        self.docs.text()
    }

    /// The `x-neuralis` block, with camelCase keys in the canonical order of the block.
    #[must_use]
    pub fn x_neuralis(&self) -> Value {
        render::x_neuralis(self)
    }

    /// Whether the handler declared `annotations(cancellable)`.
    #[must_use]
    pub fn is_cancellable(&self) -> bool {
        self.annotations
            .cancellable
            .as_ref()
            .is_some_and(|c| c.value)
    }

    /// Whether the handler takes `&ToolContext`.
    #[must_use]
    pub fn takes_context(&self) -> bool {
        self.params
            .iter()
            .any(|p| matches!(p, Param::Context { .. }))
    }

    /// Whether the handler takes an `AbortSignal`.
    #[must_use]
    pub fn takes_abort(&self) -> bool {
        self.params.iter().any(|p| matches!(p, Param::Abort { .. }))
    }
}

/// Parses `#[tool(args)]` on the free function `item` and runs every check the source
/// decides (see [`check_tool`]), reporting each violation into `cx` led by its rule id.
/// A function with a `self` receiver is a method whose impl lacks `#[neuralis::tools]`:
/// a `handler-signature` error that says so.
///
/// A model with errors is still returned (what could be read), so the caller can emit
/// what it has.
pub fn parse_tool(cx: &Ctxt, args: proc_macro2::TokenStream, item: &syn::ItemFn) -> Tool {
    let tool = parse::parse(cx, args, item, sig::Mode::Free);
    check_tool(cx, &tool);
    tool
}

/// Parses `#[tool(args)]` on a method of a `#[neuralis::tools]` impl (see
/// [`method_as_fn`]): as [`parse_tool`], and the method takes `&self`. `service` is the
/// impl's [`parse_service`]; `None` when the impl cannot be one (the method is still read,
/// for its own errors).
///
/// ```
/// use neuralis_syntax::{Ctxt, tool::{method_as_fn, parse_method, parse_service}};
///
/// let item: syn::ItemImpl = syn::parse_quote! {
///     impl Notes {
///         /// List the notes.
///         #[tool(annotations(read_only, category = "read"))]
///         pub async fn notes_list(&self, input: ListNotes) -> Listed { todo!() }
///     }
/// };
/// let cx = Ctxt::new();
/// let service = parse_service(&cx, &item);
/// let syn::ImplItem::Fn(method) = &item.items[0] else { unreachable!() };
/// let tool = parse_method(&cx, quote::quote!(annotations(read_only, category = "read")), &method_as_fn(method), service.as_ref());
/// cx.check().expect("no errors");
/// assert_eq!(tool.name.value, "notes_list");
/// assert_eq!(tool.service.map(|s| s.ident.to_string()).as_deref(), Some("Notes"));
/// ```
pub fn parse_method(
    cx: &Ctxt,
    args: proc_macro2::TokenStream,
    item: &syn::ItemFn,
    service: Option<&Service>,
) -> Tool {
    let mut tool = parse::parse(cx, args, item, sig::Mode::Method);
    tool.service = service.cloned();
    check_tool(cx, &tool);
    tool
}
