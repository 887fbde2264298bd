//! `todos_update`: replace a board's todos and members.

use neuralis::{ToolInput, ToolOutput, tool};
use serde::{Deserialize, Serialize};

/// How urgent a todo is.
#[derive(ToolInput, Deserialize, Serialize, Clone, Copy, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Priority {
    /// Some day.
    Low,
    /// This week.
    Normal,
    /// Today.
    High,
}

/// One todo.
#[derive(ToolInput, Deserialize)]
pub struct Todo {
    /// What to do.
    #[schema(min_length = 1, max_length = 500)]
    pub title: String,
    /// How urgent it is.
    pub priority: Priority,
    /// Whether it is done.
    #[serde(default)]
    pub done: bool,
}

/// One member of the board.
#[derive(ToolInput, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Member {
    /// The member's user id.
    pub user_id: String,
    /// How the board shows the member.
    pub display_name: Option<String>,
}

/// The input of [`todos_update`].
#[derive(ToolInput, Deserialize)]
#[schema(root, title = "Update Todos")]
pub struct TodosUpdate {
    /// The board to update.
    #[schema(min_length = 1)]
    pub board: String,
    /// The board's todos, replacing the current ones.
    #[schema(max_items = 200)]
    pub todos: Vec<Todo>,
    /// The board's members, replacing the current ones.
    pub members: Option<Vec<Member>>,
}

/// What [`todos_update`] returns.
#[derive(Serialize, ToolOutput)]
pub struct Updated {
    /// Always `true`.
    pub ok: bool,
    /// How many todos the board now has.
    pub todos: usize,
}

/// Replace the todos and members of a board.
#[tool(
    family = "todos",
    operation = "todos.update",
    transport = "embedded",
    annotations(title = "Update Todos", destructive, idempotent, category = "write"),
    ui(presentation = "inline", icon = "check-square")
)]
pub fn todos_update(input: TodosUpdate) -> Updated {
    Updated {
        ok: true,
        todos: input.todos.len(),
    }
}
