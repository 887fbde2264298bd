//! Discovery: the crate's module tree, read from the root file the way rustc reads it
//! (`mod` declarations, inline modules, `#[path]`, `#[cfg]`), and every `#[tool]`
//! handler, `ToolInput` type, other named type and `use` in it.
//!
//! Handlers are free functions and the `#[tool]` methods of `impl` blocks (of a
//! `#[neuralis::tools]` impl, and of an impl without the marker, which the macro refuses).
//! Blind spots, as in cxx's `file.rs`: items made by macros (`macro_rules!`, attribute
//! macros), handlers inside function bodies, and `include!`d source are not seen. `#[cfg_attr]` is expanded and `#[cfg]` fields and variants are removed, as
//! rustc does before a derive runs.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use proc_macro2::Span;

use syn::{Attribute, DeriveInput, ImplItem, Item, ItemFn, ItemImpl, Type, UseTree};

use crate::cfg::Cfg;
use crate::deps::CrateInfo;

/// One source file that was read.
#[derive(Debug)]
pub struct Source {
    /// The file on disk.
    pub path: PathBuf,
    /// The path shown in messages: absolute, so that a terminal or an editor opens it
    /// from wherever cargo was started (cargo runs the build script in the package's
    /// directory, and prints paths relative to the workspace root).
    pub display: String,
    /// The text, for the source lines of messages.
    pub text: Arc<str>,
}

/// A `use` entry of a module: `use a::b as c;` is `Some("c")` → `[a, b]`, a glob
/// `use a::*;` is `None` → `[a]`; `use ::a::b;` starts with a `"::"` segment.
#[derive(Debug, Clone)]
pub struct Use {
    /// The name brought in, or `None` for a glob.
    pub alias: Option<String>,
    /// The path as written.
    pub path: Vec<String>,
    /// `pub use`: seen by other crates' globs.
    pub public: bool,
    /// Where the path's first segment is written (`None` for `use self::...` groups).
    pub span: Option<Span>,
}

/// A module of the crate.
#[derive(Debug)]
pub struct Module {
    /// `["crate", "tools", "weather"]`.
    pub path: Vec<String>,
    /// The enclosing module.
    pub parent: Option<usize>,
    /// The file that holds the module's items.
    pub file: usize,
    /// Child modules by name.
    pub children: BTreeMap<String, usize>,
    /// `use` entries.
    pub uses: Vec<Use>,
    /// Named types defined here, by name (indexes into [`Crate::types`]).
    pub types: BTreeMap<String, usize>,
    /// Whether an item-level macro is invoked here: it may define names the build script
    /// cannot see.
    pub macros: bool,
}

/// What a named type is.
#[derive(Debug)]
pub enum TypeItem {
    /// A struct or enum; `true` when it derives `ToolInput`.
    Data(Box<DeriveInput>, bool),
    /// `type A = B;`
    Alias(Box<Type>),
    /// A union, trait or anything else with no schema.
    Other,
}

/// A named type of the crate.
#[derive(Debug)]
pub struct TypeDef {
    /// Where it is defined.
    pub module: usize,
    /// Its name.
    pub ident: syn::Ident,
    /// The item.
    pub item: TypeItem,
    /// `pub`: seen by other crates' globs.
    pub public: bool,
}

/// A function with a `#[tool]` attribute.
#[derive(Debug)]
pub struct ToolFn {
    /// Where it is defined.
    pub module: usize,
    /// The `#[tool(...)]` attribute.
    pub attr: Attribute,
    /// The function, without the attribute (a method as a function item).
    pub func: ItemFn,
    /// For a method, the impl it is in.
    pub owner: Option<Owner>,
}

/// The `impl` block of a `#[tool]` method.
#[derive(Debug)]
pub struct Owner {
    /// The impl without its items.
    pub item: Box<ItemImpl>,
    /// Whether it carries `#[neuralis::tools]`.
    pub marked: bool,
}

/// A file that could not be read or parsed: rustc reports it better.
#[derive(Debug)]
pub struct Unreadable {
    /// The path tried.
    pub path: PathBuf,
    /// Why.
    pub reason: String,
}

/// Everything discovery found.
#[derive(Debug, Default)]
pub struct Crate {
    /// Every file read, in reading order.
    pub sources: Vec<Source>,
    /// Modules; index 0 is the crate root.
    pub modules: Vec<Module>,
    /// Named types.
    pub types: Vec<TypeDef>,
    /// `#[tool]` handlers.
    pub tools: Vec<ToolFn>,
    /// Files that could not be read.
    pub unreadable: Vec<Unreadable>,
    /// The crates whose source was read: index 0 is the package, then the dependencies
    /// whose type tables were found (`deps`). Modules, types and sources are shared.
    pub crates: Vec<CrateInfo>,
    /// The names `extern crate` declarations give crates in the package, anywhere.
    pub extern_crates: Vec<String>,
    /// The types with a hand-written `impl ToolInput for T` (or `impl neuralis::ToolInput`),
    /// by their module and name as the impl writes them: the build script cannot compose
    /// their schema, so a tool that takes one has a tool file its author writes.
    pub hand_inputs: Vec<(usize, String)>,
    /// `#[tool]` handlers this build's `cfg` leaves out (a tool behind a cargo feature
    /// that is off), each with the `#[cfg(...)]` that does: their files are kept.
    pub compiled_out: Vec<(ToolFn, String)>,
}

/// Whether `attr` is `#[tool(...)]` or `#[neuralis::tool(...)]`.
#[must_use]
pub fn is_tool_attr(attr: &Attribute) -> bool {
    attr.path()
        .segments
        .last()
        .is_some_and(|s| s.ident == "tool")
}

fn derives_tool_input(attrs: &[Attribute]) -> bool {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("derive"))
        .any(|a| {
            a.parse_args_with(
                syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
            )
            .is_ok_and(|paths| {
                paths
                    .iter()
                    .any(|p| p.segments.last().is_some_and(|s| s.ident == "ToolInput"))
            })
        })
}

fn path_attr(attrs: &[Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| match &a.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

struct Walker<'a> {
    cfg: &'a Cfg,
    krate: Crate,
}

impl Crate {
    /// Reads the crate whose root file is `root`.
    pub fn read(root: &Path, cfg: &Cfg) -> Crate {
        let mut w = Walker {
            cfg,
            krate: Crate::default(),
        };
        let dir = root.parent().map(Path::to_path_buf).unwrap_or_default();
        let root_module = w.load_file(root, vec!["crate".to_owned()], None, dir);
        let mut krate = w.krate;
        krate
            .crates
            .push(CrateInfo::package(root_module, 0..krate.modules.len()));
        krate
    }

    /// Reads a dependency's source into these tables, its modules under `name` (its
    /// library's name), with its own configuration. Returns the modules read and the root
    /// module.
    pub fn read_dependency(
        &mut self,
        root: &Path,
        cfg: &Cfg,
        name: &str,
    ) -> (std::ops::Range<usize>, Option<usize>) {
        let start = self.modules.len();
        let mut w = Walker {
            cfg,
            krate: std::mem::take(self),
        };
        let dir = root.parent().map(Path::to_path_buf).unwrap_or_default();
        let tools = w.krate.tools.len();
        let externs = w.krate.extern_crates.len();
        let root_module = w.load_file(root, vec![name.to_owned()], None, dir);
        // A dependency's own `#[tool]`s are its package's, never this one's, and so are
        // the names its `extern crate`s declare.
        w.krate.tools.truncate(tools);
        w.krate.extern_crates.truncate(externs);
        *self = w.krate;
        (start..self.modules.len(), root_module)
    }

    /// The module at `path` (`["crate", "a"]`).
    #[cfg(test)]
    #[must_use]
    pub fn module_by_path(&self, path: &[String]) -> Option<usize> {
        self.modules.iter().position(|m| m.path == path)
    }

    /// The module path of `module` joined with `::`, for messages.
    #[must_use]
    pub fn module_name(&self, module: usize) -> String {
        self.modules[module].path.join("::")
    }
}

/// `path` as messages show it: absolute (from the current directory when relative).
#[must_use]
pub fn display_path(path: &Path) -> String {
    std::path::absolute(path)
        .unwrap_or_else(|_| path.to_path_buf())
        .to_string_lossy()
        .into_owned()
}

impl Walker<'_> {
    /// Reads a module file. `dir` is where its non-inline children live.
    fn load_file(
        &mut self,
        path: &Path,
        mod_path: Vec<String>,
        parent: Option<usize>,
        dir: PathBuf,
    ) -> Option<usize> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                self.krate.unreadable.push(Unreadable {
                    path: path.to_path_buf(),
                    reason: e.to_string(),
                });
                return None;
            }
        };
        let file = self.krate.sources.len();
        let ast = syn::parse_file(&text);
        self.krate.sources.push(Source {
            path: path.to_path_buf(),
            display: display_path(path),
            text: Arc::from(text),
        });
        let ast = match ast {
            Ok(ast) => ast,
            Err(e) => {
                self.krate.unreadable.push(Unreadable {
                    path: path.to_path_buf(),
                    reason: e.to_string(),
                });
                return None;
            }
        };
        if !self.cfg.is_active(&ast.attrs) {
            return None;
        }
        let module = self.new_module(mod_path, parent, file);
        let file_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        self.items(module, file, ast.items, &file_dir, &dir, false);
        Some(module)
    }

    fn new_module(&mut self, path: Vec<String>, parent: Option<usize>, file: usize) -> usize {
        let index = self.krate.modules.len();
        if let (Some(p), Some(name)) = (parent, path.last()) {
            self.krate.modules[p].children.insert(name.clone(), index);
        }
        self.krate.modules.push(Module {
            path,
            parent,
            file,
            children: BTreeMap::new(),
            uses: Vec::new(),
            types: BTreeMap::new(),
            macros: false,
        });
        index
    }

    fn add_data(&mut self, module: usize, ident: &syn::Ident, mut input: DeriveInput) {
        self.cfg.configure(&mut input);
        let derives = derives_tool_input(&input.attrs);
        let public = is_pub(&input.vis);
        self.add_type(
            module,
            ident,
            TypeItem::Data(Box::new(input), derives),
            public,
        );
    }

    fn add_type(&mut self, module: usize, ident: &syn::Ident, item: TypeItem, public: bool) {
        let index = self.krate.types.len();
        self.krate.modules[module]
            .types
            .insert(ident.to_string(), index);
        self.krate.types.push(TypeDef {
            module,
            ident: ident.clone(),
            item,
            public,
        });
    }

    /// `file_dir` is the directory of the file being read (for `#[path]` outside
    /// inline modules); `dir` is where `mod x;` looks for `x.rs` and `x/mod.rs`;
    /// `inline` says whether the items sit in an inline module.
    fn items(
        &mut self,
        module: usize,
        file: usize,
        items: Vec<Item>,
        file_dir: &Path,
        dir: &Path,
        inline: bool,
    ) {
        for mut item in items {
            if let Some(attrs) = item_attrs(&mut item) {
                self.cfg.expand_cfg_attr(attrs);
            }
            match item {
                Item::Struct(s) if self.cfg.is_active(&s.attrs) => {
                    let ident = s.ident.clone();
                    self.add_data(module, &ident, DeriveInput::from(s));
                }
                Item::Enum(e) if self.cfg.is_active(&e.attrs) => {
                    let ident = e.ident.clone();
                    self.add_data(module, &ident, DeriveInput::from(e));
                }
                Item::Type(t) if self.cfg.is_active(&t.attrs) => {
                    self.add_type(module, &t.ident, TypeItem::Alias(t.ty), is_pub(&t.vis));
                }
                Item::Union(u) if self.cfg.is_active(&u.attrs) => {
                    self.add_type(module, &u.ident, TypeItem::Other, is_pub(&u.vis));
                }
                Item::Use(u) if self.cfg.is_active(&u.attrs) => self.add_use(module, &u),
                Item::Fn(mut f) => {
                    if let Some(pos) = f.attrs.iter().position(is_tool_attr) {
                        let attr = f.attrs.remove(pos);
                        let tool = ToolFn {
                            module,
                            attr,
                            func: f,
                            owner: None,
                        };
                        if self.cfg.is_active(&tool.func.attrs) {
                            self.krate.tools.push(tool);
                        } else {
                            let cfg = cfg_text(&tool.func.attrs);
                            self.krate.compiled_out.push((tool, cfg));
                        }
                    }
                }
                Item::Impl(i) if self.cfg.is_active(&i.attrs) => self.impl_tools(module, i),
                Item::ExternCrate(e) if self.cfg.is_active(&e.attrs) => {
                    self.add_extern_crate(module, &e);
                }
                // `macro_rules!` defines a macro, not items, and the toolkit's own define
                // `neuralis_package` at most; any other invocation may define any name.
                Item::Macro(m) if self.cfg.is_active(&m.attrs) && !is_known_macro(&m.mac.path) => {
                    self.krate.modules[module].macros = true;
                }
                Item::Mod(m) if self.cfg.is_active(&m.attrs) => {
                    self.add_mod(module, file, m, file_dir, dir, inline);
                }
                _ => {}
            }
        }
    }

    /// A `use` item: its paths, flattened, with its visibility.
    fn add_use(&mut self, module: usize, u: &syn::ItemUse) {
        let mut out = Vec::new();
        let mut prefix = Vec::new();
        if u.leading_colon.is_some() {
            prefix.push("::".to_owned());
        }
        flatten_use(&u.tree, &mut prefix, None, &mut out);
        let public = is_pub(&u.vis);
        for entry in &mut out {
            entry.public = public;
        }
        self.krate.modules[module].uses.extend(out);
    }

    /// An `extern crate` item: the crate's name in scope (`self` is the crate itself).
    fn add_extern_crate(&mut self, module: usize, e: &syn::ItemExternCrate) {
        let name = e
            .rename
            .as_ref()
            .map_or_else(|| e.ident.to_string(), |(_, r)| r.to_string());
        let path = if e.ident == "self" {
            vec!["crate".to_owned()]
        } else {
            vec!["::".to_owned(), e.ident.to_string()]
        };
        self.krate.modules[module].uses.push(Use {
            alias: Some(name.clone()),
            path,
            public: is_pub(&e.vis),
            span: Some(e.ident.span()),
        });
        self.krate.extern_crates.push(name);
    }

    /// A `mod` item: an inline module's items, or the file rustc reads for it.
    fn add_mod(
        &mut self,
        module: usize,
        file: usize,
        m: syn::ItemMod,
        file_dir: &Path,
        dir: &Path,
        inline: bool,
    ) {
        let name = m.ident.to_string();
        let mut mod_path = self.krate.modules[module].path.clone();
        mod_path.push(name.clone());
        let explicit = path_attr(&m.attrs);
        match m.content {
            Some((_, inner)) => {
                let child_dir = match &explicit {
                    Some(p) => dir.join(p),
                    None => dir.join(&name),
                };
                let child = self.new_module(mod_path, Some(module), file);
                self.items(child, file, inner, file_dir, &child_dir, true);
            }
            None => {
                let (path, child_dir) = match &explicit {
                    // Outside inline modules `#[path]` is relative to the
                    // file's directory, inside them to the module directory;
                    // the file then reads like a `mod.rs`.
                    Some(p) => {
                        let base = if inline { dir } else { file_dir };
                        let path = base.join(p);
                        let d = path.parent().map(Path::to_path_buf).unwrap_or_default();
                        (path, d)
                    }
                    None => {
                        let flat = dir.join(format!("{name}.rs"));
                        if flat.is_file() {
                            (flat, dir.join(&name))
                        } else {
                            (dir.join(&name).join("mod.rs"), dir.join(&name))
                        }
                    }
                };
                self.load_file(&path, mod_path, Some(module), child_dir);
            }
        }
    }
}

/// `macro_rules!`, `neuralis::package!` or `neuralis::wasm_entry!`: item macros whose
/// items the build script knows.
fn is_known_macro(path: &syn::Path) -> bool {
    let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    match segments.as_slice() {
        [only] => only == "macro_rules",
        [krate, name] => krate == "neuralis" && (name == "package" || name == "wasm_entry"),
        _ => false,
    }
}

fn is_pub(vis: &syn::Visibility) -> bool {
    matches!(vis, syn::Visibility::Public(_))
}

impl Walker<'_> {
    /// The `#[tool]` methods of an impl, `#[cfg]` evaluated. A `#[tool]` inside a method's
    /// `#[cfg_attr]` is not one: `#[tools]` reads its impl before rustc expands them.
    fn impl_tools(&mut self, module: usize, mut item: ItemImpl) {
        if let Some(name) = hand_input(&item) {
            self.krate.hand_inputs.push((module, name));
        }
        let items = std::mem::take(&mut item.items);
        let marked = item.attrs.iter().any(neuralis_syntax::tool::is_tools_attr);
        let header: Box<ItemImpl> = Box::new(item);
        for impl_item in items {
            let ImplItem::Fn(mut method) = impl_item else {
                continue;
            };
            let Some(pos) = method.attrs.iter().position(is_tool_attr) else {
                continue;
            };
            let active = self.cfg.is_active(&method.attrs);
            let attr = method.attrs.remove(pos);
            let tool = ToolFn {
                module,
                attr,
                func: neuralis_syntax::tool::method_as_fn(&method),
                owner: Some(Owner {
                    item: header.clone(),
                    marked,
                }),
            };
            if active {
                self.krate.tools.push(tool);
            } else {
                let cfg = cfg_text(&method.attrs);
                self.krate.compiled_out.push((tool, cfg));
            }
        }
    }
}

/// The `#[cfg(...)]` attributes of an item, as written (`#[cfg(feature = "deploy")]`).
fn cfg_text(attrs: &[Attribute]) -> String {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("cfg"))
        .map(|a| {
            let span = syn::spanned::Spanned::span(a);
            span.source_text()
                .unwrap_or_else(|| quote::ToTokens::to_token_stream(a).to_string())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `impl ToolInput for T` (the trait by any path ending in `ToolInput`): `T`'s name.
fn hand_input(item: &ItemImpl) -> Option<String> {
    let (path, _) = item.trait_.as_ref()?;
    if path.segments.last()?.ident != "ToolInput" {
        return None;
    }
    let syn::Type::Path(ty) = &*item.self_ty else {
        return None;
    };
    Some(ty.path.segments.last()?.ident.to_string())
}

fn item_attrs(item: &mut Item) -> Option<&mut Vec<Attribute>> {
    Some(match item {
        Item::ExternCrate(i) => &mut i.attrs,
        Item::Macro(i) => &mut i.attrs,
        Item::Struct(i) => &mut i.attrs,
        Item::Enum(i) => &mut i.attrs,
        Item::Type(i) => &mut i.attrs,
        Item::Union(i) => &mut i.attrs,
        Item::Use(i) => &mut i.attrs,
        Item::Fn(i) => &mut i.attrs,
        Item::Mod(i) => &mut i.attrs,
        Item::Impl(i) => &mut i.attrs,
        _ => return None,
    })
}

/// The entries of one `use` tree. `first` is where the path's first segment is written,
/// once it is met.
fn flatten_use(tree: &UseTree, prefix: &mut Vec<String>, first: Option<Span>, out: &mut Vec<Use>) {
    let entry = |alias: Option<String>, path: Vec<String>, own: Span| Use {
        alias,
        path,
        public: false,
        span: first.or(Some(own)),
    };
    match tree {
        UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            flatten_use(&p.tree, prefix, first.or(Some(p.ident.span())), out);
            prefix.pop();
        }
        UseTree::Name(n) => {
            let name = n.ident.to_string();
            if name == "self" {
                if let Some(last) = prefix.last() {
                    out.push(entry(Some(last.clone()), prefix.clone(), n.ident.span()));
                }
                return;
            }
            let mut path = prefix.clone();
            path.push(name.clone());
            out.push(entry(Some(name), path, n.ident.span()));
        }
        UseTree::Rename(r) => {
            let mut path = prefix.clone();
            let name = r.ident.to_string();
            if name != "self" {
                path.push(name);
            }
            out.push(entry(Some(r.rename.to_string()), path, r.ident.span()));
        }
        UseTree::Glob(g) => out.push(entry(None, prefix.clone(), syn::spanned::Spanned::span(g))),
        UseTree::Group(g) => {
            for t in &g.items {
                flatten_use(t, prefix, first, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, rel: &str, text: &str) {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("dirs");
        std::fs::write(path, text).expect("write");
    }

    #[test]
    fn walks_mod_declarations_path_inline_and_cfg() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let d = tmp.path();
        write(
            d,
            "src/lib.rs",
            r#"
            mod a;
            mod b;
            #[path = "elsewhere/c_file.rs"] mod c;
            mod inline { mod deep; pub struct InInline; }
            #[cfg(feature = "extra")] mod extra;
            #[cfg(not(feature = "extra"))] mod plain { pub struct Plain; }
            #[cfg(test)] mod tests;
            "#,
        );
        write(d, "src/a.rs", "mod child; pub struct A;");
        write(d, "src/a/child.rs", "pub struct Child;");
        write(
            d,
            "src/b/mod.rs",
            "pub struct B; use crate::a::A as Alias; use super::*;",
        );
        write(d, "src/elsewhere/c_file.rs", "mod sib; pub struct C;");
        write(d, "src/elsewhere/sib.rs", "pub struct Sib;");
        write(d, "src/inline/deep.rs", "pub struct Deep;");
        write(d, "src/extra.rs", "pub struct Extra;");
        let mut cfg = Cfg::default();
        let k = Crate::read(&d.join("src/lib.rs"), &cfg);
        let names: Vec<String> = k.modules.iter().map(|m| m.path.join("::")).collect();
        assert_eq!(
            names,
            [
                "crate",
                "crate::a",
                "crate::a::child",
                "crate::b",
                "crate::c",
                "crate::c::sib",
                "crate::inline",
                "crate::inline::deep",
                "crate::plain"
            ]
        );
        assert!(k.unreadable.is_empty(), "{:?}", k.unreadable);
        let b = k.module_by_path(&["crate".into(), "b".into()]).expect("b");
        assert_eq!(k.modules[b].uses[0].alias.as_deref(), Some("Alias"));
        assert_eq!(k.modules[b].uses[1].alias, None);
        assert_eq!(
            k.sources[k.modules[b].file].display,
            display_path(&d.join("src/b/mod.rs"))
        );

        cfg.enable_feature("extra");
        let k = Crate::read(&d.join("src/lib.rs"), &cfg);
        assert!(
            k.module_by_path(&["crate".into(), "extra".into()])
                .is_some()
        );
        assert!(
            k.module_by_path(&["crate".into(), "plain".into()])
                .is_none()
        );
    }

    #[test]
    fn finds_tools_and_derives() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let d = tmp.path();
        write(
            d,
            "src/main.rs",
            r#"
            #[derive(Deserialize, neuralis::ToolInput)] struct In { a: u8 }
            #[derive(Debug)] struct NotInput;
            #[neuralis::tool(annotations(category = "read"))] fn handler(input: In) {}
            #[cfg(feature = "off")] #[tool] fn hidden(input: In) {}
            fn plain() {}
            "#,
        );
        let k = Crate::read(&d.join("src/main.rs"), &Cfg::default());
        assert_eq!(k.tools.len(), 1);
        assert_eq!(k.tools[0].func.sig.ident, "handler");
        assert!(matches!(k.types[0].item, TypeItem::Data(_, true)));
        assert!(matches!(k.types[1].item, TypeItem::Data(_, false)));
    }

    #[test]
    fn finds_tool_methods_in_impls() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let d = tmp.path();
        write(
            d,
            "src/lib.rs",
            r#"
            pub struct Notes;
            #[neuralis::tools]
            impl Notes {
                #[tool(annotations(category = "read"))] fn list(&self, input: In) {}
                #[cfg(feature = "off")] #[tool] fn hidden(&self, input: In) {}
                #[cfg_attr(all(), tool(annotations(category = "read")))] fn via_cfg_attr(&self, input: In) {}
                fn plain(&self) {}
            }
            impl Notes { #[tool] fn unmarked(&self, input: In) {} }
            #[cfg(feature = "off")] #[neuralis::tools] impl Notes { #[tool] fn off(&self, input: In) {} }
            mod inner { #[tools] impl super::Notes { #[tool] fn nested(&self, input: In) {} } }
            "#,
        );
        let k = Crate::read(&d.join("src/lib.rs"), &Cfg::default());
        let found: Vec<(String, Option<bool>, String)> = k
            .tools
            .iter()
            .map(|t| {
                (
                    t.func.sig.ident.to_string(),
                    t.owner.as_ref().map(|o| o.marked),
                    k.module_name(t.module),
                )
            })
            .collect();
        assert_eq!(
            found,
            [
                ("list".to_owned(), Some(true), "crate".to_owned()),
                ("unmarked".to_owned(), Some(false), "crate".to_owned()),
                ("nested".to_owned(), Some(true), "crate::inner".to_owned()),
            ]
        );
        assert!(
            k.tools[0]
                .owner
                .as_ref()
                .is_some_and(|o| o.item.items.is_empty())
        );
    }

    #[test]
    fn a_missing_module_file_is_noted_not_fatal() {
        let tmp = tempfile::tempdir().expect("tempdir");
        write(tmp.path(), "src/lib.rs", "mod gone; struct S;");
        let k = Crate::read(&tmp.path().join("src/lib.rs"), &Cfg::default());
        assert_eq!(k.unreadable.len(), 1);
        assert_eq!(k.types.len(), 1);
    }
}
