// header_coverage.rs - reads include/ctensor.h at test time and checks that every CT_API function is
// declared in this crate with the same parameter count, and every enum constant / version macro with the
// same value, so nothing in the header silently goes missing from the Rust declarations.
use std::collections::HashMap;
use std::path::PathBuf;

fn read(path: PathBuf) -> String {
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn header_text() -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..");
    read(root.join("include/ctensor.h"))
}

fn crate_text() -> String {
    read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
}

/// Drops /* ... */ and // ... comments.
fn strip_comments(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    loop {
        let block = rest.find("/*");
        let line = rest.find("//");
        match (block, line) {
            (Some(b), l) if l.is_none_or(|l| b < l) => {
                out.push_str(&rest[..b]);
                let end = rest[b..].find("*/").expect("unterminated comment") + b + 2;
                rest = &rest[end..];
            }
            (_, Some(l)) => {
                out.push_str(&rest[..l]);
                rest = rest[l..].find('\n').map_or("", |e| &rest[l + e..]);
            }
            _ => {
                out.push_str(rest);
                return out;
            }
        }
    }
}

/// Number of parameters in a parameter list (the text between the outer parentheses).
fn count_params(list: &str) -> usize {
    let list = list.trim().trim_end_matches(',').trim();
    if list.is_empty() || list == "void" {
        return 0;
    }
    let mut depth = 0i32;
    let mut n = 1;
    for c in list.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => n += 1,
            _ => {}
        }
    }
    n
}

/// The text between the '(' at `open` and its matching ')'.
fn paren_body(s: &str, open: usize) -> &str {
    let mut depth = 0;
    for (i, c) in s[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return &s[open + 1..open + i];
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced parentheses after byte {open}");
}

fn ident_before(s: &str, end: usize) -> &str {
    let head = s[..end].trim_end();
    let start = head.rfind(|c: char| !(c.is_alphanumeric() || c == '_')).map_or(0, |i| i + 1);
    &head[start..]
}

/// name -> parameter count for every `CT_API ... name(...);` declaration of the header.
fn header_functions(header: &str) -> HashMap<String, usize> {
    let text = strip_comments(header);
    let mut out = HashMap::new();
    for decl in text.split(';') {
        let Some(api) = decl.find("CT_API ") else { continue };
        let decl = &decl[api..];
        if decl.starts_with("CT_API __") {
            continue; // the #define lines
        }
        let open = decl.find('(').expect("declaration without parameters");
        out.insert(ident_before(decl, open).to_owned(), count_params(paren_body(decl, open)));
    }
    out
}

/// name -> parameter count for every `pub fn name(...)` in the crate.
fn crate_functions(src: &str) -> HashMap<String, usize> {
    let text = strip_comments(src);
    let mut out = HashMap::new();
    let mut at = 0;
    while let Some(i) = text[at..].find("pub fn ") {
        let start = at + i + "pub fn ".len();
        let open = start + text[start..].find('(').unwrap();
        out.insert(text[start..open].trim().to_owned(), count_params(paren_body(&text, open)));
        at = open;
    }
    out
}

/// CT_* name -> value for enum constants (`CT_X = 3,`) and `#define CT_X 3` macros of the header.
fn header_constants(header: &str) -> HashMap<String, i64> {
    let text = strip_comments(header);
    let mut out = HashMap::new();
    for line in text.lines().map(str::trim) {
        let (name, value) = if let Some(def) = line.strip_prefix("#define ") {
            match def.split_once(' ') {
                Some((n, v)) => (n.trim(), v.trim()),
                None => continue,
            }
        } else if let Some((n, v)) = line.split_once('=') {
            (n.trim(), v.trim().trim_end_matches(','))
        } else {
            continue;
        };
        if let (true, Ok(v)) = (name.starts_with("CT_"), value.parse::<i64>()) {
            out.insert(name.to_owned(), v);
        }
    }
    out
}

/// CT_* name -> value for `pub const CT_X: type = value;` in the crate.
fn crate_constants(src: &str) -> HashMap<String, i64> {
    let mut out = HashMap::new();
    for line in src.lines().map(str::trim) {
        let Some(rest) = line.strip_prefix("pub const ") else { continue };
        let (name, rest) = rest.split_once(':').unwrap();
        let value = rest.split_once('=').unwrap().1.trim().trim_end_matches(';');
        out.insert(name.trim().to_owned(), value.parse::<i64>().unwrap());
    }
    out
}

#[test]
fn every_header_function_is_declared_with_the_same_arity() {
    let header = header_functions(&header_text());
    let ours = crate_functions(&crate_text());
    assert!(header.len() > 150, "header parse found only {} functions", header.len());
    let mut problems = Vec::new();
    for (name, n) in &header {
        match ours.get(name) {
            None => problems.push(format!("{name}: missing from ctensor-sys")),
            Some(m) if m != n => problems.push(format!("{name}: {n} parameters in the header, {m} in Rust")),
            _ => {}
        }
    }
    for name in ours.keys().filter(|n| !header.contains_key(*n)) {
        problems.push(format!("{name}: declared in Rust but not in the header"));
    }
    problems.sort();
    assert!(problems.is_empty(), "ctensor-sys is out of date with include/ctensor.h:\n{}", problems.join("\n"));
}

#[test]
fn every_header_constant_is_declared_with_the_same_value() {
    let header = header_constants(&header_text());
    let ours = crate_constants(&crate_text());
    assert!(header.contains_key("CT_ERR_VERSION") && header.contains_key("CT_ABI_VERSION"));
    let mut problems = Vec::new();
    for (name, v) in &header {
        match ours.get(name) {
            None => problems.push(format!("{name}: missing")),
            Some(w) if w != v => problems.push(format!("{name}: {v} in the header, {w} in Rust")),
            _ => {}
        }
    }
    problems.sort();
    assert!(problems.is_empty(), "constants out of date:\n{}", problems.join("\n"));
}

#[test]
fn parser_sees_known_declarations() {
    let f = header_functions(
        "/* x */\nCT_API ct_status ct_foo(ct_tensor a, const int64_t* d,\n int32_t n);\nCT_API int32_t ct_bar(void);",
    );
    assert_eq!(f.get("ct_foo"), Some(&3));
    assert_eq!(f.get("ct_bar"), Some(&0));
    let r = crate_functions("pub fn ct_foo(a: ct_tensor, f: Option<unsafe extern \"C\" fn(x: i32, y: i32)>,) -> i32;");
    assert_eq!(r.get("ct_foo"), Some(&2));
}
