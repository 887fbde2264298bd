//! `#[cfg(...)]` as cargo describes the build to a build script: features through
//! `CARGO_FEATURE_*`, every other option through `CARGO_CFG_*`.

use std::collections::{BTreeMap, BTreeSet};

use syn::punctuated::Punctuated;
use syn::{Attribute, Expr, Lit, Meta, Token};

/// The configuration a crate is being built with.
#[derive(Debug, Clone, Default)]
pub struct Cfg {
    /// Enabled features, as written in `Cargo.toml` with `-` and `_` folded to `_` and
    /// upper-cased (cargo's `CARGO_FEATURE_<NAME>`).
    features: BTreeSet<String>,
    /// `CARGO_CFG_<NAME>` values: `unix` → `[""]`, `target_os` → `["linux"]`.
    options: BTreeMap<String, Vec<String>>,
}

fn feature_key(name: &str) -> String {
    name.replace('-', "_").to_uppercase()
}

impl Cfg {
    /// The configuration cargo gives the running build script.
    pub fn from_env() -> Self {
        Self::from_vars(std::env::vars())
    }

    /// The configuration described by `(name, value)` pairs in cargo's build-script form.
    pub fn from_vars(vars: impl IntoIterator<Item = (String, String)>) -> Self {
        let mut cfg = Self::default();
        for (k, v) in vars {
            if let Some(f) = k.strip_prefix("CARGO_FEATURE_") {
                cfg.features.insert(f.to_owned());
            } else if let Some(o) = k.strip_prefix("CARGO_CFG_") {
                let values = if v.is_empty() {
                    vec![String::new()]
                } else {
                    v.split(',').map(str::to_owned).collect()
                };
                cfg.options.insert(o.to_lowercase(), values);
            }
        }
        cfg
    }

    /// The configuration as JSON, for a dependent's build script (see `deps`).
    pub(crate) fn to_json(&self) -> serde_json::Value {
        serde_json::json!({ "features": self.features, "options": self.options })
    }

    /// The configuration [`Cfg::to_json`] wrote.
    pub(crate) fn from_json(v: &serde_json::Value) -> Option<Self> {
        let strings = |v: &serde_json::Value| -> Option<Vec<String>> {
            v.as_array()?
                .iter()
                .map(|s| s.as_str().map(str::to_owned))
                .collect()
        };
        let features = strings(v.get("features")?)?.into_iter().collect();
        let options = v
            .get("options")?
            .as_object()?
            .iter()
            .map(|(k, vs)| Some((k.clone(), strings(vs)?)))
            .collect::<Option<_>>()?;
        Some(Self { features, options })
    }

    /// Turns a feature on.
    pub fn enable_feature(&mut self, name: &str) {
        self.features.insert(feature_key(name));
    }

    /// Whether every `#[cfg]` among `attrs` holds. `cfg(test)` never does: a build
    /// script runs for the library, whose tests are compiled apart.
    pub fn is_active(&self, attrs: &[Attribute]) -> bool {
        attrs
            .iter()
            .filter(|a| a.path().is_ident("cfg"))
            .all(|a| match &a.meta {
                Meta::List(list) => list
                    .parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
                    .ok()
                    .and_then(|p| (p.len() == 1).then(|| self.eval(&p[0])))
                    .unwrap_or(true),
                _ => true,
            })
    }

    /// Expands `#[cfg_attr(predicate, attr, ...)]` as rustc does before a derive runs:
    /// the attributes when the predicate holds, nothing otherwise.
    pub fn expand_cfg_attr(&self, attrs: &mut Vec<Attribute>) {
        let mut out = Vec::with_capacity(attrs.len());
        for attr in attrs.drain(..) {
            self.expand_one(attr, &mut out, 0);
        }
        *attrs = out;
    }

    fn expand_one(&self, attr: Attribute, out: &mut Vec<Attribute>, depth: usize) {
        let Meta::List(list) = &attr.meta else {
            out.push(attr);
            return;
        };
        if !list.path.is_ident("cfg_attr") || depth > 8 {
            out.push(attr);
            return;
        }
        let Ok(args) = list.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated) else {
            out.push(attr);
            return;
        };
        let mut args = args.into_iter();
        let Some(predicate) = args.next() else {
            return;
        };
        if !self.eval(&predicate) {
            return;
        }
        for meta in args {
            let inner = Attribute {
                pound_token: attr.pound_token,
                style: attr.style,
                bracket_token: attr.bracket_token,
                meta,
            };
            self.expand_one(inner, out, depth + 1);
        }
    }

    /// What rustc hands a derive: `cfg_attr` expanded, and fields and variants whose
    /// `#[cfg]` does not hold removed.
    pub fn configure(&self, input: &mut syn::DeriveInput) {
        self.expand_cfg_attr(&mut input.attrs);
        let configure_fields = |fields: &mut syn::Fields| {
            let list = match fields {
                syn::Fields::Named(f) => &mut f.named,
                syn::Fields::Unnamed(f) => &mut f.unnamed,
                syn::Fields::Unit => return,
            };
            let kept: Punctuated<syn::Field, Token![,]> = std::mem::take(list)
                .into_iter()
                .filter_map(|mut f| {
                    self.expand_cfg_attr(&mut f.attrs);
                    self.is_active(&f.attrs).then_some(f)
                })
                .collect();
            *list = kept;
        };
        match &mut input.data {
            syn::Data::Struct(s) => configure_fields(&mut s.fields),
            syn::Data::Enum(e) => {
                let kept: Punctuated<syn::Variant, Token![,]> = std::mem::take(&mut e.variants)
                    .into_iter()
                    .filter_map(|mut v| {
                        self.expand_cfg_attr(&mut v.attrs);
                        if !self.is_active(&v.attrs) {
                            return None;
                        }
                        configure_fields(&mut v.fields);
                        Some(v)
                    })
                    .collect();
                e.variants = kept;
            }
            syn::Data::Union(_) => {}
        }
    }

    fn eval(&self, meta: &Meta) -> bool {
        match meta {
            Meta::Path(p) => {
                let Some(name) = p.get_ident().map(ToString::to_string) else {
                    return false;
                };
                name != "test" && self.options.contains_key(&name)
            }
            Meta::NameValue(nv) => {
                let Some(name) = nv.path.get_ident().map(ToString::to_string) else {
                    return false;
                };
                let Expr::Lit(syn::ExprLit {
                    lit: Lit::Str(s), ..
                }) = &nv.value
                else {
                    return false;
                };
                let value = s.value();
                if name == "feature" {
                    return self.features.contains(&feature_key(&value));
                }
                self.options
                    .get(&name)
                    .is_some_and(|vs| vs.contains(&value))
            }
            Meta::List(list) => {
                let Ok(args) =
                    list.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
                else {
                    return false;
                };
                if list.path.is_ident("all") {
                    args.iter().all(|m| self.eval(m))
                } else if list.path.is_ident("any") {
                    args.iter().any(|m| self.eval(m))
                } else if list.path.is_ident("not") {
                    args.len() == 1 && !self.eval(&args[0])
                } else {
                    false
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn active(cfg: &Cfg, attr: &str) -> bool {
        let item: syn::ItemStruct = syn::parse_str(&format!("{attr} struct S;")).expect("an item");
        cfg.is_active(&item.attrs)
    }

    #[test]
    fn features_and_options() {
        let cfg = Cfg::from_vars([
            ("CARGO_FEATURE_EXTRA_TOOLS".to_owned(), "1".to_owned()),
            ("CARGO_CFG_UNIX".to_owned(), String::new()),
            ("CARGO_CFG_TARGET_OS".to_owned(), "linux".to_owned()),
            (
                "CARGO_CFG_TARGET_FEATURE".to_owned(),
                "sse2,fxsr".to_owned(),
            ),
        ]);
        assert!(active(&cfg, r#"#[cfg(feature = "extra-tools")]"#));
        assert!(active(&cfg, r#"#[cfg(feature = "extra_tools")]"#));
        assert!(!active(&cfg, r#"#[cfg(feature = "other")]"#));
        assert!(active(&cfg, r#"#[cfg(not(feature = "other"))]"#));
        assert!(active(&cfg, "#[cfg(unix)]"));
        assert!(!active(&cfg, "#[cfg(windows)]"));
        assert!(!active(&cfg, "#[cfg(test)]"));
        assert!(active(&cfg, "#[cfg(not(test))]"));
        assert!(active(&cfg, r#"#[cfg(all(unix, target_os = "linux"))]"#));
        assert!(!active(&cfg, r#"#[cfg(all(unix, target_os = "macos"))]"#));
        assert!(active(
            &cfg,
            r#"#[cfg(any(windows, target_feature = "fxsr"))]"#
        ));
        assert!(active(&cfg, "#[derive(Debug)]"), "no cfg: active");
        assert!(
            !active(&cfg, "#[cfg(unix)] #[cfg(windows)]"),
            "every cfg holds"
        );
    }

    #[derive(Debug, Clone)]
    enum Pred {
        Feature(usize),
        Option(usize),
        Not(Box<Pred>),
        All(Vec<Pred>),
        Any(Vec<Pred>),
    }

    const FEATURES: [&str; 3] = ["alpha", "beta-two", "gamma"];
    const OPTIONS: [&str; 3] = ["unix", "windows", "test"];

    fn pred() -> impl proptest::strategy::Strategy<Value = Pred> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            (0..FEATURES.len()).prop_map(Pred::Feature),
            (0..OPTIONS.len()).prop_map(Pred::Option),
        ];
        leaf.prop_recursive(4, 24, 3, |inner| {
            prop_oneof![
                inner.clone().prop_map(|p| Pred::Not(Box::new(p))),
                proptest::collection::vec(inner.clone(), 0..3).prop_map(Pred::All),
                proptest::collection::vec(inner, 0..3).prop_map(Pred::Any),
            ]
        })
    }

    fn text(p: &Pred) -> String {
        let list = |ps: &[Pred]| ps.iter().map(text).collect::<Vec<_>>().join(", ");
        match p {
            Pred::Feature(i) => format!("feature = {:?}", FEATURES[*i]),
            Pred::Option(i) => OPTIONS[*i].to_owned(),
            Pred::Not(p) => format!("not({})", text(p)),
            Pred::All(ps) => format!("all({})", list(ps)),
            Pred::Any(ps) => format!("any({})", list(ps)),
        }
    }

    fn truth(p: &Pred, features: &[bool; 3], unix: bool) -> bool {
        match p {
            Pred::Feature(i) => features[*i],
            Pred::Option(i) => *i == 0 && unix,
            Pred::Not(p) => !truth(p, features, unix),
            Pred::All(ps) => ps.iter().all(|p| truth(p, features, unix)),
            Pred::Any(ps) => ps.iter().any(|p| truth(p, features, unix)),
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        #[test]
        fn predicates_evaluate_as_rustc_does(
            p in pred(),
            features in proptest::array::uniform3(proptest::bool::ANY),
            unix in proptest::bool::ANY,
        ) {
            let mut vars = Vec::new();
            for (on, name) in features.iter().zip(FEATURES) {
                if *on {
                    vars.push((format!("CARGO_FEATURE_{}", name.replace('-', "_").to_uppercase()), "1".to_owned()));
                }
            }
            if unix {
                vars.push(("CARGO_CFG_UNIX".to_owned(), String::new()));
            }
            let cfg = Cfg::from_vars(vars);
            let attr = format!("#[cfg({})]", text(&p));
            proptest::prop_assert_eq!(active(&cfg, &attr), truth(&p, &features, unix), "{}", attr);
        }
    }
}
