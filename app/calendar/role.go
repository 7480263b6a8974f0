package calendar

// Role is one of the five WordPress roles a user holds.
type Role string

const (
	RoleAdministrator Role = "administrator"
	RoleEditor        Role = "editor"
	RoleAuthor        Role = "author"
	RoleContributor   Role = "contributor"
	RoleSubscriber    Role = "subscriber"
)

// Roles lists the roles from the most to the least powerful.
var Roles = []Role{RoleAdministrator, RoleEditor, RoleAuthor, RoleContributor, RoleSubscriber}

// Capability is a WordPress capability. The plugin grants the same post
// capabilities for events, venues and organizers, so one set serves all three.
type Capability string

const (
	CapRead                  Capability = "read"
	CapEditPosts             Capability = "edit_posts"              // create, and edit own unpublished
	CapEditPublishedPosts    Capability = "edit_published_posts"    // edit own published
	CapEditOthersPosts       Capability = "edit_others_posts"       // edit anyone's
	CapPublishPosts          Capability = "publish_posts"           // publish, schedule
	CapDeletePosts           Capability = "delete_posts"            // delete own unpublished
	CapDeletePublishedPosts  Capability = "delete_published_posts"  // delete own published
	CapDeleteOthersPosts     Capability = "delete_others_posts"     // delete anyone's
	CapReadPrivatePosts      Capability = "read_private_posts"      // see private and others' drafts
	CapManageEventCategories Capability = "manage_event_categories" // the plugin maps it to publish_tribe_events
	CapManageTags            Capability = "manage_categories"       // post_tag's manage_terms
	CapManageUsers           Capability = "manage_users"            // /vendor/admin/v1/users
	CapUploadFiles           Capability = "upload_files"            // the media library
	CapExport                Capability = "export"                  // /vendor/admin/v1/backup: the whole store, password hashes included
	CapManageOptions         Capability = "manage_options"          // the site's own running: /vendor/admin/v1/reindex
	CapSubscribeWebhooks     Capability = "subscribe_webhooks"      // /vendor/admin/v1/webhooks: one's own subscriptions (an administrator's: everyone's)
	CapUnfilteredHTML        Capability = "unfiltered_html"         // titles, descriptions and excerpts stored as sent (others' go through kses)
)

var roleCapabilities = map[Role][]Capability{
	RoleAdministrator: {CapRead, CapEditPosts, CapEditPublishedPosts, CapEditOthersPosts, CapPublishPosts,
		CapDeletePosts, CapDeletePublishedPosts, CapDeleteOthersPosts, CapReadPrivatePosts,
		CapManageEventCategories, CapManageTags, CapManageUsers, CapUploadFiles, CapExport, CapManageOptions, CapSubscribeWebhooks,
		CapUnfilteredHTML},
	RoleEditor: {CapRead, CapEditPosts, CapEditPublishedPosts, CapEditOthersPosts, CapPublishPosts,
		CapDeletePosts, CapDeletePublishedPosts, CapDeleteOthersPosts, CapReadPrivatePosts,
		CapManageEventCategories, CapManageTags, CapUploadFiles, CapSubscribeWebhooks, CapUnfilteredHTML},
	RoleAuthor: {CapRead, CapEditPosts, CapEditPublishedPosts, CapPublishPosts,
		CapDeletePosts, CapDeletePublishedPosts, CapManageEventCategories, CapUploadFiles, CapSubscribeWebhooks},
	RoleContributor: {CapRead, CapEditPosts, CapDeletePosts},
	RoleSubscriber:  {CapRead},
}

// Valid reports whether r is one of the five roles.
func (r Role) Valid() bool {
	_, ok := roleCapabilities[r]
	return ok
}

// Has reports whether the role grants the capability.
func (r Role) Has(c Capability) bool {
	for _, x := range roleCapabilities[r] {
		if x == c {
			return true
		}
	}
	return false
}

func RoleNames() []string {
	names := make([]string, len(Roles))
	for i, r := range Roles {
		names[i] = string(r)
	}
	return names
}
