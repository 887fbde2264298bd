//! Section 4 and 7 rules the `#[tool]` source decides, one function per rule id. The
//! rules that need the input type's root keys (`askonkeys-undeclared`,
//! `defaults-undeclared`) are `const` assertions in the expansion.

use neuralis_model::RuleId;
use neuralis_model::contract::rules::{ASK_ON_KEYS_CATEGORIES, ASK_ON_KEYS_MAX, CATEGORIES};
use neuralis_model::name::is_wire_safe_tool_name;

use super::{Param, Tool};
use crate::attr::did_you_mean;
use crate::report::Ctxt;

/// Runs every check on a parsed tool. [`parse_tool`](super::parse_tool) calls it.
pub fn check_tool(cx: &Ctxt, tool: &Tool) {
    check_tool_name(cx, tool);
    check_category(cx, tool);
    check_askonkeys_posture(cx, tool);
    check_askonkeys_duplicate(cx, tool);
    check_askonkeys_too_many(cx, tool);
    check_cancellable_signal(cx, tool);
}

// tool-name: the name is the file stem of `tools/<name>.json` and the name on the wire,
// so it must be wire-safe.
fn check_tool_name(cx: &Ctxt, tool: &Tool) {
    let name = &tool.name.value;
    if is_wire_safe_tool_name(name) {
        return;
    }
    let why = if name.is_empty() {
        "is empty".to_owned()
    } else if name.chars().count() > 48 {
        format!("is {} characters long, above 48", name.chars().count())
    } else {
        "has characters other than ASCII letters, digits, `_` and `-`".to_owned()
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
        format_args!("tool name `{name}` {why}"),
        help,
    );
}

// category-missing, category-invalid: every natively authored tool states its risk
// category, one the platform knows.
fn check_category(cx: &Ctxt, tool: &Tool) {
    match &tool.annotations.category {
        None => cx.error_at(
            RuleId::CategoryMissing,
            // In a macro, the call site is the whole `#[tool(...)]` attribute.
            tool.annotations.span.unwrap_or_else(proc_macro2::Span::call_site),
            "the tool declares no category",
            "add `annotations(category = \"...\")` with one of `read`, `write`, `execute`, `network`, `machine`, `credential`, `admin`, `unknown`",
        ),
        Some(c) if !CATEGORIES.contains(&c.value.as_str()) => {
            let help = did_you_mean(&c.value, CATEGORIES).map_or_else(
                || RuleId::CategoryInvalid.rule().hint.to_owned(),
                |k| format!("did you mean `{k}`?"),
            );
            cx.error_at(
                RuleId::CategoryInvalid,
                c.span,
                format_args!("`{}` is not a category", c.value),
                help,
            );
        }
        Some(_) => {}
    }
}

// askonkeys-posture: elsewhere every call asks anyway, so `askOnKeys` would gate nothing.
fn check_askonkeys_posture(cx: &Ctxt, tool: &Tool) {
    let Some(keys) = &tool.ask_on_keys else {
        return;
    };
    let destructive = tool
        .annotations
        .destructive
        .as_ref()
        .is_some_and(|d| d.value);
    let category = tool.annotations.category.as_ref().map(|c| c.value.as_str());
    let why = match category {
        _ if !destructive => "the tool is not `destructive`".to_owned(),
        Some(c) if !ASK_ON_KEYS_CATEGORIES.contains(&c) && CATEGORIES.contains(&c) => {
            format!("category `{c}` asks on every call anyway")
        }
        _ => return,
    };
    cx.error_at(
        RuleId::AskonkeysPosture,
        keys.span,
        format_args!("`ask_on_keys` would gate nothing: {why}"),
        "remove `ask_on_keys`, or declare `annotations(destructive, category = ...)` with `write`, `execute`, `network` or `machine`",
    );
}

// askonkeys-duplicate: a key listed twice is a mistake, not a stronger ask.
fn check_askonkeys_duplicate(cx: &Ctxt, tool: &Tool) {
    let Some(keys) = &tool.ask_on_keys else {
        return;
    };
    for (i, key) in keys.value.iter().enumerate() {
        if keys.value[..i].iter().any(|k| k.value == key.value) {
            cx.error_at(
                RuleId::AskonkeysDuplicate,
                key.span,
                format_args!("`ask_on_keys` lists `{}` twice", key.value),
                RuleId::AskonkeysDuplicate.rule().hint,
            );
        }
    }
}

// askonkeys-too-many: at most 8 distinct keys; a tool that must ask about more should
// ask about every call.
fn check_askonkeys_too_many(cx: &Ctxt, tool: &Tool) {
    let Some(keys) = &tool.ask_on_keys else {
        return;
    };
    let mut distinct: Vec<&str> = Vec::new();
    for key in &keys.value {
        if distinct.contains(&key.value.as_str()) {
            continue;
        }
        distinct.push(&key.value);
        if distinct.len() == ASK_ON_KEYS_MAX + 1 {
            cx.error_at(
                RuleId::AskonkeysTooMany,
                key.span,
                format_args!(
                    "`ask_on_keys` lists {} distinct keys, above {ASK_ON_KEYS_MAX}; this is the first one too many",
                    keys.value
                        .iter()
                        .enumerate()
                        .filter(|(i, k)| !keys.value[..*i].iter().any(|o| o.value == k.value))
                        .count()
                ),
                RuleId::AskonkeysTooMany.rule().hint,
            );
        }
    }
}

// cancellable-signal: `cancellable` promises the handler honours an abort signal, and
// only a cancellable handler is given one.
fn check_cancellable_signal(cx: &Ctxt, tool: &Tool) {
    let abort = tool.params.iter().find_map(|p| match p {
        Param::Abort { span, .. } => Some(*span),
        _ => None,
    });
    let declared = tool.annotations.cancellable.as_ref();
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
