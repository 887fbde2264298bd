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

pub mod bound;
mod check;
mod parse;
mod render;
mod service;
mod sig;
pub mod task;

use neuralis_model::contract::push_pointer;
use neuralis_model::xn::{Key, XNeuralis, keys};
use proc_macro2::Span;
use serde_json::Value;

use crate::attr::Spanned;
use crate::attr::docs::Docs;
use crate::report::Ctxt;

pub use check::check_tool;
pub use render::Rendered;
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
    /// The `x-neuralis` block the attribute declares, as the model types it (the values
    /// that were read; an error says why another was not).
    pub xn: XNeuralis,
    /// Where each key of the block, and each entry of its lists, was written.
    pub written: Written,
    /// `bound(...)`: the tool's own caps and the argument that asks for more (the
    /// toolkit's, never in the block).
    pub bound: bound::Bound,
    /// `task = "..."`, `task_start = "..."`: how its calls run as tasks (the toolkit's,
    /// never in the block).
    pub task: task::Task,
}

/// One `defaults(key = value)` entry.
#[derive(Debug, Clone)]
pub struct DefaultValue {
    /// The root property, as serde names it; its span is the key.
    pub key: Spanned<String>,
    /// The value, as JSON; its span is the value expression.
    pub value: Spanned<Value>,
}

/// Where the keys of a `#[tool]`'s `x-neuralis` block were written, by JSON pointer.
#[derive(Debug, Clone, Default)]
pub struct Written {
    places: Vec<Place>,
}

/// One key of the block, or one entry of a list, as the attribute writes it.
#[derive(Debug, Clone)]
pub struct Place {
    /// Its JSON pointer in the tool file (`/x-neuralis/ui/cardType`,
    /// `/x-neuralis/askOnKeys/0`, `/x-neuralis/defaults/days`).
    pub pointer: String,
    /// The key's token; for an entry of a list, the entry's.
    pub key: Span,
    /// The value's token, when one is written after `=` (a default's value too).
    pub value: Option<Span>,
    /// Whether the value was read into [`Tool::xn`] (when not, an error said why).
    pub accepted: bool,
}

impl Place {
    /// The token a message about this place points at: the value when one is written,
    /// else the key.
    #[must_use]
    pub fn span(&self) -> Span {
        self.value.unwrap_or(self.key)
    }
}

impl Written {
    /// Where `pointer` was written last (a key given twice is an error; the last one
    /// counts, as in the block).
    #[must_use]
    pub fn place(&self, pointer: &str) -> Option<&Place> {
        self.places.iter().rev().find(|p| p.pointer == pointer)
    }

    /// Where `key` was written.
    #[must_use]
    pub fn key(&self, key: &Key) -> Option<&Place> {
        self.place(&key.pointer())
    }

    /// Whether `key` was written and its value read.
    #[must_use]
    pub fn accepted(&self, key: &Key) -> bool {
        self.key(key).is_some_and(|p| p.accepted)
    }

    pub(crate) fn push(&mut self, place: Place) {
        self.places.push(place);
    }
}

impl Tool {
    /// The tool's description: the handler's doc comment, joined as rustdoc joins it.
    /// `None` when there is none, or when it is only known when the user's crate compiles
    /// (`#[doc = include_str!(...)]`; see [`Tool::docs`]).
    #[must_use]
    pub fn description(&self) -> Option<String> {
        self.docs.text()
    }

    /// The `x-neuralis` block, with its wire names in the canonical order of the block:
    /// [`Tool::render`]'s block.
    #[must_use]
    pub fn x_neuralis(&self) -> Value {
        self.xn.to_value()
    }

    /// The `x-neuralis` block as [`Tool::x_neuralis`], and for each key and list entry it
    /// writes, the JSON pointer and the token that decides it (see [`Rendered`]).
    #[must_use]
    pub fn render(&self) -> Rendered {
        render::render(self)
    }

    /// Whether the handler declared `annotations(cancellable)`.
    #[must_use]
    pub fn is_cancellable(&self) -> bool {
        self.xn.annotations.cancellable == Some(true)
    }

    /// `ask_on_keys(...)`, in order, each key at its token (duplicates kept: the check
    /// reports them).
    #[must_use]
    pub fn ask_on_keys(&self) -> Vec<Spanned<String>> {
        let list = keys::ASK_ON_KEYS.pointer();
        self.xn
            .ask_on_keys
            .iter()
            .enumerate()
            .filter_map(|(i, key)| {
                let place = self.written.place(&push_pointer(&list, &i.to_string()))?;
                Some(Spanned::new(key.clone(), place.key))
            })
            .collect()
    }

    /// `defaults(key = value, ...)`, in order; keys are serde names.
    #[must_use]
    pub fn defaults(&self) -> Vec<DefaultValue> {
        let map = keys::DEFAULTS.pointer();
        self.xn
            .defaults
            .iter()
            .filter_map(|(key, value)| {
                let place = self.written.place(&push_pointer(&map, key))?;
                Some(DefaultValue {
                    key: Spanned::new(key.clone(), place.key),
                    value: Spanned::new(value.clone(), place.span()),
                })
            })
            .collect()
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
