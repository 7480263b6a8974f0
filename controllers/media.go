package controllers

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-fuego/fuego"

	"calendar/app"
	"calendar/app/calendar"
)

// MediaList documents the media list: a JSON array, as WordPress' media
// endpoint answers, with the totals in headers.
type MediaList []app.AttachmentView

var mediaTextArgs = []Arg{
	{Name: "title", Type: TypeString, MaxBytes: calendar.MaxTitleBytes, Description: "The title; the file's name by default."},
	{Name: "alt_text", Type: TypeString, MaxBytes: calendar.MaxExcerptBytes, Description: "Alternative text for screen readers."},
	{Name: "caption", Type: TypeString, MaxBytes: calendar.MaxExcerptBytes, Description: "The caption, HTML."},
	{Name: "description", Type: TypeString, MaxBytes: calendar.MaxDescriptionBytes, Description: "The description, HTML."},
}

// uploadedFiles serves the library's files under the uploads prefix (app.Media).
type uploadedFiles interface {
	OpenFile(ctx context.Context, name string) (*app.ServedFile, error)
}

// mediaService is what the media routes ask of the domain (app.Media).
type mediaService interface {
	uploadedFiles
	List(ctx context.Context, caller app.Caller, f app.MediaFilter) (*app.Page[app.AttachmentView], error)
	Upload(ctx context.Context, caller app.Caller, in app.UploadInput) (app.AttachmentView, error)
	Get(ctx context.Context, caller app.Caller, id int64) (app.AttachmentView, error)
	Update(ctx context.Context, caller app.Caller, id int64, f app.MediaFields) (app.AttachmentView, error)
	Delete(ctx context.Context, caller app.Caller, id int64, force bool) (app.Deleted[app.AttachmentView], error)
}

// mountMedia registers the media library: {api}/media and {api}/media/{id}.
func mountMedia(api *API, media mediaService) {
	api.files = media
	listArgs := append(append([]Arg{}, pageArgs...),
		Arg{Name: "search", Type: TypeString, MaxBytes: calendar.MaxSearchLength, Description: "Only images whose title, caption or description contains it."},
		Arg{Name: "author", Type: TypeArray, Items: TypeInteger, Description: "Only images uploaded by these users."})
	handle(api, EventsNamespace, []string{http.MethodGet}, "/media", listArgs, func(r *Request) (MediaList, error) {
		f := app.MediaFilter{Page: readPage(r.Values), Search: stringParam(r.Values, "search")}
		f.Authors, _ = r.Values.Ints("author")
		page, err := media.List(r.Context(), r.Caller, f)
		if err != nil {
			return nil, err
		}
		pageLinks(api, r, "/media", listArgs, page) // the headers; the list itself is WordPress' bare array
		return page.Items, nil
	}, fuego.OptionSummary("List the media library"), fuego.OptionAddResponse(http.StatusOK, "One page of images", fuego.Response{Type: MediaList{}}))

	handle(api, EventsNamespace, []string{http.MethodPost}, "/media", mediaTextArgs, func(r *Request) (app.AttachmentView, error) {
		in := app.UploadInput{MediaFields: readMediaFields(r.Values)}
		up, ok := r.Values["file"].(upload)
		in.FileName, in.Data = up.name, up.data
		if !ok && r.Caller.Can(calendar.CapUploadFiles) && isUnnamedRawBody(r.HTTP) { // after the permission, as WordPress
			return app.AttachmentView{}, calendar.NewError(calendar.KindInvalid, "rest_upload_no_content_disposition",
				"No Content-Disposition supplied.")
		}
		v, err := media.Upload(r.Context(), r.Caller, in)
		if err == nil {
			r.SetStatus(http.StatusCreated)
			r.Header().Set("Location", r.Caller.Root+"media/"+strconv.FormatInt(v.ID, 10))
		}
		return v, err
	}, fuego.OptionSummary("Upload an image: the raw bytes with Content-Disposition: attachment; filename=..., or a multipart form field \"file\""),
		documentUpload, fuego.OptionAddResponse(http.StatusCreated, "The attachment", fuego.Response{Type: app.AttachmentView{}}))

	path := "/media/{id}"
	handle(api, EventsNamespace, []string{http.MethodGet}, path, []Arg{idArg}, func(r *Request) (app.AttachmentView, error) {
		id, _ := r.Values.Int("id")
		return media.Get(r.Context(), r.Caller, id)
	}, fuego.OptionSummary("Read an image"))
	handle(api, EventsNamespace, editable, path, append([]Arg{idArg}, mediaTextArgs...), func(r *Request) (app.AttachmentView, error) {
		id, _ := r.Values.Int("id")
		return media.Update(r.Context(), r.Caller, id, readMediaFields(r.Values))
	}, fuego.OptionSummary("Update an image's texts"))
	handle(api, EventsNamespace, []string{http.MethodDelete}, path, append([]Arg{idArg}, deleteArgs...), func(r *Request) (app.Deleted[app.AttachmentView], error) {
		id, _ := r.Values.Int("id")
		force, _ := r.Values.Bool("force")
		return media.Delete(r.Context(), r.Caller, id, force)
	}, fuego.OptionSummary("Delete an image and its files (force=true: attachments have no trash)"), mayAnswer(calendar.KindNotImplemented))
}

// documentUpload describes the two bodies an upload takes: the image itself,
// or a form with the image as "file" beside the text fields.
func documentUpload(r *fuego.BaseRoute) {
	binary := openapi3.NewStringSchema().WithFormat("binary")
	file := openapi3.NewStringSchema().WithFormat("binary")
	file.Description = "The image: JPEG, PNG, GIF or WebP, as its content says, whatever its name or type."
	form := openapi3.NewObjectSchema().WithProperty("file", file).WithRequired([]string{"file"})
	for _, a := range mediaTextArgs {
		form.WithProperty(a.Name, paramSchema(a))
	}
	content := openapi3.NewContentWithSchema(binary, []string{"image/jpeg", "image/png", "image/gif", "image/webp", "application/octet-stream"})
	content["multipart/form-data"] = openapi3.NewMediaType().WithSchema(form)
	r.Operation.RequestBody = &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().WithRequired(true).WithContent(content).
		WithDescription("The image (JPEG, PNG, GIF or WebP, as its content says), with Content-Disposition: attachment; filename=...; or a multipart form.")}
}

func readMediaFields(v Values) app.MediaFields {
	return app.MediaFields{Title: stringParam(v, "title"), AltText: stringParam(v, "alt_text"),
		Caption: stringParam(v, "caption"), Description: stringParam(v, "description")}
}

// uploadsPrefix is where the files of the media library are served.
const uploadsPrefix = "/uploads/"

// serveUpload serves a file of the media library: its own type, never
// sniffed, cached for a year (a name is never given to other content while
// its attachment lives), with ETag, conditional requests and one range: a
// request for several is answered with the whole file, since a thousand
// one-byte ranges would each cost a part's headers (over a hundred times
// the file), and players and download managers ask for one.
func (api *API) serveUpload(w http.ResponseWriter, r *http.Request) {
	if strings.Contains(r.Header.Get("Range"), ",") {
		r.Header.Del("Range")
	}
	name := strings.TrimPrefix(r.URL.Path, uploadsPrefix)
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		api.writeError(w, r, errNoRoute())
		return
	}
	f, err := api.files.OpenFile(r.Context(), name)
	if err != nil {
		api.writeError(w, r, err)
		return
	}
	defer f.Close()
	info := f.Info()
	h.Set("Content-Type", f.MIME)
	h.Set("Cache-Control", "public, max-age=31536000")
	h.Set("ETag", `"`+strconv.FormatInt(info.Owner, 36)+"-"+strconv.FormatInt(info.Written.UnixNano(), 36)+"-"+strconv.FormatInt(info.Size, 36)+`"`)
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	http.ServeContent(w, r, "", info.Written, f)
}
