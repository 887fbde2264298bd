//! The package table in `OUT_DIR`, brought in by `neuralis::package!()`, generated with
//! `quote`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::run::Produced;
use crate::skills::Checked;

/// The file name in `OUT_DIR`.
pub const FILE: &str = "neuralis_package.rs";

/// The name of a tool's drift test: `drift_<name>`, made an identifier, unique.
fn test_ident(name: &str, used: &mut BTreeSet<String>) -> proc_macro2::Ident {
    let base: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let mut ident = format!("drift_{base}");
    let mut n = 2;
    while !used.insert(ident.clone()) {
        ident = format!("drift_{base}_{n}");
        n += 1;
    }
    format_ident!("{}", ident)
}

/// A path the build script read from the source (the handler's module and name, a
/// descriptor, `crate = "..."`), as tokens; `None` if it does not parse, which the
/// compiler then reports at the source.
fn path(text: &str) -> Option<syn::Path> {
    syn::parse_str(text).ok()
}

/// The text of the table: a module `neuralis_package` holding every tool produced, in
/// name order, with its handler's path, the emitted file embedded with `include_str!`
/// (so the runtime serves the very bytes the platform loads) and the handler's
/// descriptor; and a test per tool comparing the file with the run-time composition.
pub fn package(
    tools_dir: &Path,
    produced: &BTreeMap<String, Produced>,
    skills: &[Checked],
) -> String {
    // `crate = "..."` on a handler names the `neuralis` crate when it is renamed.
    let krate = produced
        .values()
        .find_map(|p| p.krate.as_deref().and_then(path))
        .map_or_else(|| quote!(::neuralis), |p| quote!(#p));
    let file = |name: &str| {
        tools_dir
            .join(format!("{name}.json"))
            .to_string_lossy()
            .into_owned()
    };
    let mut files = Vec::new();
    let mut descriptors = Vec::new();
    let mut tests = Vec::new();
    let mut used = BTreeSet::new();
    for (name, p) in produced {
        let Some(descriptor) = path(&p.descriptor) else {
            continue;
        };
        let (handler, file) = (&p.handler, file(name));
        files.push(quote!((#name, #handler, include_str!(#file))));
        let test = test_ident(name, &mut used);
        tests.push(quote! {
            #[test]
            fn #test() {
                #krate::__private::no_drift(#name, include_str!(#file), &#descriptor);
            }
        });
        descriptors.push(quote!(&#descriptor));
    }
    let services: BTreeSet<&str> = produced
        .values()
        .filter_map(|p| p.service.as_deref())
        .collect();
    let services = services.iter();
    let skills = skills.iter().map(|skill| skill_tokens(&krate, skill));
    let table: TokenStream = quote! {
        /// The tools of this package, written by `neuralis-build` (see `neuralis::package!`).
        #[allow(dead_code)]
        pub mod neuralis_package {
            /// Every tool, in name order: its name, its handler's path, and the emitted
            /// `tools/<name>.json`.
            pub const FILES: &[(&str, &str, &str)] = &[#(#files),*];

            /// The handlers' descriptors, in the order of [`FILES`].
            pub static TOOLS: &[&#krate::__private::ToolDescriptor] = &[#(#descriptors),*];

            /// The services the tool methods are called on (the types of the crate's
            /// `#[neuralis::tools]` impls, as written there), in name order: [`builder`]
            /// needs `.service(...)` with a value of each before `build()` succeeds.
            pub const SERVICES: &[&str] = &[#(#services),*];

            /// The skills of `skills/` the build script checked, with their files embedded
            /// with `include_bytes!`, in name order: [`builder`] gives them to the package,
            /// which `neuralis-mcp` serves (MCP's skills extension).
            pub static SKILLS: &[#krate::__private::Skill] = &[#(#skills),*];

            /// Every tool's emitted file with its handler, ready for the call pipeline:
            /// give it a value of each of [`SERVICES`] with `.service(...)` (a missing one
            /// makes `build()` fail naming it), state or caps, then `build()`.
            pub fn builder() -> #krate::dispatch::PackageBuilder {
                let mut builder = #krate::dispatch::Package::builder().skills(SKILLS);
                for (&(name, _, file), tool) in FILES.iter().zip(TOOLS) {
                    builder = builder.checked_tool(name, file, **tool);
                }
                builder
            }

            /// The package: every tool's emitted file served by its handler.
            ///
            /// # Errors
            ///
            /// When a file fails the contract (the build script refuses to write one that
            /// does), and when [`SERVICES`] is not empty: a package with tool methods is
            /// built from [`builder`] with its services.
            pub fn package() -> ::core::result::Result<
                #krate::dispatch::Package,
                #krate::dispatch::BuildError,
            > {
                builder().build()
            }

            /// The drift guard: each tool's file (the static view, rendered from source)
            /// against the run-time composition of its handler; the first difference
            /// names its JSON pointer, so the field that drifted.
            #[cfg(test)]
            mod drift {
                #(#tests)*
            }
        }
    };
    format!("// @generated by neuralis-build from the crate's source; do not edit.\n{table}\n")
}

/// One skill of the table: its name, its frontmatter, each file `include_bytes!`.
fn skill_tokens(krate: &TokenStream, skill: &Checked) -> TokenStream {
    let (name, frontmatter) = (&skill.name, &skill.frontmatter);
    let files = skill.files.iter().map(|(path, at)| {
        let at = at.to_string_lossy();
        quote!(#krate::__private::SkillFile { path: #path, bytes: include_bytes!(#at) })
    });
    quote! {
        #krate::__private::Skill { name: #name, frontmatter: #frontmatter, files: &[#(#files),*] }
    }
}
