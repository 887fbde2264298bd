//! Section 4 and 7 rules the `#[tool]` source decides, one function per rule id. The
//! rules that need the input type's root keys (`askonkeys-undeclared`,
//! `defaults-undeclared`) are `const` assertions in the expansion.

use neuralis_model::RuleId;
use neuralis_model::name::NameProblem;
use neuralis_model::task::{TaskStart, TaskSupport};
use neuralis_model::xn::verdict::{ASK_ON_KEYS_CATEGORIES, ASK_ON_KEYS_MAX, Posture, Scan};
use neuralis_model::xn::{CATEGORIES, keys};

use super::{Param, Tool};
use crate::attr::Spanned;
use crate::report::Ctxt;

/// Runs every check on a parsed tool. [`parse_tool`](super::parse_tool) calls it. The
/// checks of a single value (`category-invalid`, `xn-type`) run as the parser reads it.
pub fn check_tool(cx: &Ctxt, tool: &Tool) {
    check_tool_name(cx, tool);
    check_category_missing(cx, tool);
    check_askonkeys_posture(cx, tool);
    check_askonkeys_duplicate(cx, tool);
    check_askonkeys_too_many(cx, tool);
    check_cancellable_signal(cx, tool);
    check_task_attr(cx, tool);
    check_task_cancellable(cx, tool);
}

// tool-name: the name is the file stem of `tools/<name>.json` and the name on the wire,
// so it must be wire-safe.
fn check_tool_name(cx: &Ctxt, tool: &Tool) {
    let name = &tool.name.value;
    let Some(problem) = NameProblem::of(name) else {
        return;
    };
    let help = if tool.name_explicit {
        RuleId::ToolName.rule().hint.to_owned()
    } else {
        format!(
            "{}, or give the tool another name with `name = \"...\"`",
            RuleId::ToolName.rule().hint
        )
    };
    cx.error_at(
        RuleId::ToolName,
        tool.name.span,
        format_args!("tool name `{name}` {problem}"),
        help,
    );
}

// category-missing: every natively authored tool states its risk category (that it is
// one the platform knows, `category-invalid`, is judged as the value is read).
fn check_category_missing(cx: &Ctxt, tool: &Tool) {
    if tool.written.key(&keys::CATEGORY).is_some() {
        return;
    }
    let list = &keys::ANNOTATIONS;
    cx.error_at(
        RuleId::CategoryMissing,
        // In a macro, the call site is the whole `#[tool(...)]` attribute.
        tool.written
            .key(list)
            .map_or_else(proc_macro2::Span::call_site, |p| p.key),
        "the tool declares no category",
        format_args!(
            "add `{}({} = \"...\")` with one of `{}`",
            list.attr,
            keys::CATEGORY.attr,
            CATEGORIES.join("`, `")
        ),
    );
}

// askonkeys-posture: elsewhere every call asks anyway, so `askOnKeys` would gate nothing.
fn check_askonkeys_posture(cx: &Ctxt, tool: &Tool) {
    let Some(list) = tool.written.key(&keys::ASK_ON_KEYS).filter(|p| p.accepted) else {
        return;
    };
    let destructive = tool.xn.annotations.destructive_hint == Some(true);
    // A category the parser refused has been reported; it decides nothing here.
    let category = tool
        .written
        .accepted(&keys::CATEGORY)
        .then_some(tool.xn.annotations.category);
    let why = match Posture::of(destructive, category) {
        Posture::NotDestructive => format!("the tool is not `{}`", keys::DESTRUCTIVE_HINT.attr),
        Posture::AsksAnyway(c) => format!("category `{c}` asks on every call anyway"),
        Posture::Gates | Posture::NoCategory => return,
    };
    let gating: Vec<&str> = ASK_ON_KEYS_CATEGORIES.iter().map(|c| c.as_str()).collect();
    cx.error_at(
        RuleId::AskonkeysPosture,
        list.key,
        format_args!("`{}` would gate nothing: {why}", keys::ASK_ON_KEYS.attr),
        format_args!(
            "remove `{}`, or declare `{}({}, {} = ...)` with {}",
            keys::ASK_ON_KEYS.attr,
            keys::ANNOTATIONS.attr,
            keys::DESTRUCTIVE_HINT.attr,
            keys::CATEGORY.attr,
            either(&gating)
        ),
    );
}

/// `a`, `b` or `c`.
fn either(items: &[&str]) -> String {
    match items.split_last() {
        Some((last, [])) => format!("`{last}`"),
        Some((last, rest)) => format!("`{}` or `{last}`", rest.join("`, `")),
        None => String::new(),
    }
}

/// The keys of `ask_on_keys(...)`, scanned once.
fn scan_ask_on_keys(list: &[Spanned<String>]) -> Scan {
    Scan::of(list.iter().map(|k| Some(k.value.as_str())), ASK_ON_KEYS_MAX)
}

// askonkeys-duplicate: a key listed twice is a mistake, not a stronger ask.
fn check_askonkeys_duplicate(cx: &Ctxt, tool: &Tool) {
    let list = tool.ask_on_keys();
    for i in scan_ask_on_keys(&list).repeats {
        cx.error_at(
            RuleId::AskonkeysDuplicate,
            list[i].span,
            format_args!(
                "`{}` lists `{}` twice",
                keys::ASK_ON_KEYS.attr,
                list[i].value
            ),
            RuleId::AskonkeysDuplicate.rule().hint,
        );
    }
}

// askonkeys-too-many: at most 8 distinct keys; a tool that must ask about more should
// ask about every call.
fn check_askonkeys_too_many(cx: &Ctxt, tool: &Tool) {
    let list = tool.ask_on_keys();
    let scan = scan_ask_on_keys(&list);
    if let Some(i) = scan.beyond {
        cx.error_at(
            RuleId::AskonkeysTooMany,
            list[i].span,
            format_args!(
                "`{}` lists {} distinct keys, above {ASK_ON_KEYS_MAX}; this is the first one too many",
                keys::ASK_ON_KEYS.attr,
                scan.distinct
            ),
            RuleId::AskonkeysTooMany.rule().hint,
        );
    }
}

// cancellable-signal: `cancellable` promises the handler honours an abort signal, and
// only a cancellable handler is given one.
fn check_cancellable_signal(cx: &Ctxt, tool: &Tool) {
    let abort = tool.params.iter().find_map(|p| match p {
        Param::Abort { span, .. } => Some(*span),
        _ => None,
    });
    let declared = tool
        .written
        .key(&keys::CANCELLABLE)
        .filter(|p| p.accepted)
        .map(|p| Spanned::new(tool.is_cancellable(), p.key));
    let declared = declared.as_ref();
    match (declared, abort) {
        (Some(c), None) if c.value => cx.error_at(
            RuleId::CancellableSignal,
            c.span,
            "the tool declares `cancellable` but the handler takes no `AbortSignal`",
            "add a parameter `abort: AbortSignal` and stop work when it fires, or remove `cancellable`",
        ),
        (declared, Some(span)) if !declared.is_some_and(|c| c.value) => cx.error_at(
            RuleId::CancellableSignal,
            span,
            "the handler takes an `AbortSignal` but the tool does not declare `cancellable`",
            "declare `annotations(cancellable)`: only a cancellable handler is given a signal that can fire",
        ),
        _ => {}
    }
}

// task-attr: `task_start` says where a task starts, so it needs a tool whose calls may run
// as tasks, and a handler that can await `cx.begin_task()`. (A malformed value is judged
// as it is read.)
fn check_task_attr(cx: &Ctxt, tool: &Tool) {
    let Some(start) = &tool.task.start else {
        return;
    };
    if start.value != TaskStart::Handler {
        return;
    }
    if !tool.task.mode().support.allows_task() {
        cx.error_at(
            RuleId::TaskAttr,
            start.span,
            "`task_start` is given but the tool's calls never run as tasks",
            "add `task = \"optional\"` or `task = \"required\"`, or remove `task_start`",
        );
    } else if !tool.is_async {
        cx.error_at(
            RuleId::TaskAttr,
            start.span,
            "`task_start = \"handler\"` needs an `async fn`: the handler begins its task with `cx.begin_task().await`",
            "make the handler `async`, or remove `task_start` to start the task with the call",
        );
    }
}

// task-cancellable: a client stops a task with `tasks/cancel`; a tool whose calls run only
// as tasks promises to stop when asked, so it takes the abort signal.
fn check_task_cancellable(cx: &Ctxt, tool: &Tool) {
    let Some(support) = &tool.task.support else {
        return;
    };
    if support.value == TaskSupport::Required && !tool.is_cancellable() {
        cx.error_at(
            RuleId::TaskCancellable,
            support.span,
            "the tool's calls run only as tasks (`task = \"required\"`) but it does not declare `cancellable`",
            RuleId::TaskCancellable.rule().hint,
        );
    }
}
