//! schema-attr: on error the derive still implements `ToolInput`, so uses of the type
//! report nothing more.
use neuralis::ToolInput;

#[derive(ToolInput)]
pub struct Broken {
    #[schema(colour = "red")]
    pub name: String,
}

#[derive(ToolInput)]
pub struct User {
    pub broken: Broken,
}

fn main() {
    let _ = Broken::schema();
    let _ = User::schema();
}
