//! `task = "..."` and `task_start = "..."` in `#[tool(...)]`: how the tool's calls run as
//! tasks (MCP's tasks extension). The toolkit's own (`task-attr`, `task-cancellable`): it
//! goes into the handler's descriptor, never into the tool file's `x-neuralis`, whose keys
//! are the platform's. The words are the model's (`neuralis_model::task`).
//!
//! ```
//! use neuralis_model::task::{TaskStart, TaskSupport};
//! use neuralis_syntax::{Ctxt, tool::parse_tool};
//!
//! let item: syn::ItemFn = syn::parse_quote! {
//!     /// Exports the audit log.
//!     async fn audit_export(input: Export, abort: AbortSignal) -> Entries { todo!() }
//! };
//! let cx = Ctxt::new();
//! let args = quote::quote!(annotations(category = "read", cancellable), task = "required");
//! let tool = parse_tool(&cx, args, &item);
//! cx.check().expect("no errors");
//! assert_eq!(tool.task.mode().support, TaskSupport::Required);
//! assert_eq!(tool.task.mode().start, TaskStart::Call);
//! assert!(!tool.x_neuralis().to_string().contains("task"));
//! ```

use neuralis_model::RuleId;
use neuralis_model::suggest::did_you_mean;
use neuralis_model::task::{TaskMode, TaskStart, TaskSupport};
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned as _;
use syn::{Expr, Lit};

use crate::attr::Spanned;
use crate::report::Ctxt;

/// The attribute's key for the support.
pub const TASK: &str = "task";

/// The attribute's key for where the task starts.
pub const TASK_START: &str = "task_start";

/// What `task = ...` and `task_start = ...` declare, each at its value's token.
#[derive(Debug, Clone, Default)]
pub struct Task {
    /// `task = "optional"`: the support.
    pub support: Option<Spanned<TaskSupport>>,
    /// `task_start = "handler"`: where the task starts.
    pub start: Option<Spanned<TaskStart>>,
}

impl Task {
    /// The mode the descriptor carries.
    #[must_use]
    pub fn mode(&self) -> TaskMode {
        let support = self
            .support
            .as_ref()
            .map_or_else(TaskSupport::default, |s| s.value);
        let start = self
            .start
            .as_ref()
            .map_or_else(TaskStart::default, |s| s.value);
        TaskMode::new(support).starting(start)
    }
}

/// Reads `task = "..."` (`key` [`TASK`]) or `task_start = "..."` ([`TASK_START`]) into
/// `task`, reporting a malformed value (`task-attr`) at its token.
pub(super) fn parse(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: &str,
    task: &mut Task,
) -> syn::Result<()> {
    let at = meta.path.span();
    let (words, example): (&[&str], &str) = if key == TASK {
        (&TaskSupport::NAMES, "task = \"optional\"")
    } else {
        (&TaskStart::NAMES, "task_start = \"handler\"")
    };
    let expr: Option<Expr> = if meta.input.peek(syn::Token![=]) {
        Some(meta.value()?.parse()?)
    } else {
        super::parse::skip_value(meta)?;
        None
    };
    let word = match &expr {
        Some(Expr::Lit(syn::ExprLit {
            lit: Lit::Str(s), ..
        })) => Spanned::new(s.value(), s.span()),
        Some(other) => {
            cx.error(
                RuleId::TaskAttr,
                other,
                format_args!("`{key}` takes a string, for example `{example}`"),
            );
            return Ok(());
        }
        None => {
            cx.error_at(
                RuleId::TaskAttr,
                at,
                format_args!("`{key}` takes a value, for example `{example}`"),
                RuleId::TaskAttr.rule().hint,
            );
            return Ok(());
        }
    };
    let taken = if key == TASK {
        task.support.is_some()
    } else {
        task.start.is_some()
    };
    if taken {
        cx.error_at(
            RuleId::TaskAttr,
            at,
            format_args!("`{key}` is given twice"),
            "give it once",
        );
    }
    let unknown = || {
        let help = did_you_mean(&word.value, words).map_or_else(
            || format!("`{key}` is one of `{}`", words.join("`, `")),
            |w| format!("did you mean `{w}`?"),
        );
        cx.error_at(
            RuleId::TaskAttr,
            word.span,
            format_args!("`{}` is not a value of `{key}`", word.value),
            help,
        );
    };
    if key == TASK {
        match word.value.parse::<TaskSupport>() {
            Ok(support) => task.support = Some(Spanned::new(support, word.span)),
            Err(_) => unknown(),
        }
    } else {
        match word.value.parse::<TaskStart>() {
            Ok(start) => task.start = Some(Spanned::new(start, word.span)),
            Err(_) => unknown(),
        }
    }
    Ok(())
}
