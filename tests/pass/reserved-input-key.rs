//! reserved-input-key near-misses: the reserved names nested (`members[].userId`) and a
//! root key that differs by case (`UserId`) compile.
use neuralis::ToolInput;

#[derive(ToolInput, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Member {
    pub user_id: String,
    pub role: String,
}

#[derive(ToolInput, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[schema(root)]
pub struct Team {
    pub members: Vec<Member>,
    pub owner: Member,
}

#[derive(ToolInput, serde::Deserialize)]
#[serde(rename_all = "PascalCase")]
#[schema(root)]
pub struct Legacy {
    pub user_id: String,
}

#[derive(ToolInput, serde::Deserialize)]
#[schema(root)]
pub struct Flattened {
    pub query: String,
    #[serde(flatten)]
    pub team: Team,
}

#[derive(ToolInput, serde::Deserialize)]
#[schema(root)]
pub struct Listing {
    pub query: String,
    #[serde(flatten)]
    pub paging: neuralis_test_support::Paging,
    pub caller: neuralis_test_support::CallerContext,
}

fn main() {
    let listing = Listing::schema();
    assert_eq!(listing["properties"]["pageSize"]["maximum"], 100);
    assert_eq!(listing["properties"]["caller"]["required"][0], "userId");
    assert_eq!(Team::schema()["properties"]["members"]["items"]["required"][0], "userId");
    assert!(Legacy::schema()["properties"].get("UserId").is_some());
    assert!(Flattened::schema()["properties"].get("members").is_some());
}
