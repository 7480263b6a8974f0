package mongo

import (
	"bytes"
	"context"
	"errors"
	"io"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"calendar/app/calendar"
	"calendar/repository/internal/storage"
)

// mongoFiles keeps uploads in the GridFS bucket "uploads", each owner in its
// file's metadata. A unique index on uploads.files' filename claims a name:
// the driver writes the chunks first and the files document last, so a put
// that crashes or loses a race leaves at most chunks that no files document
// names, which no read reaches.
type mongoFiles struct {
	db     *mongo.Database
	files  *mongo.Collection
	chunks *mongo.Collection
	// reads serves downloads and deletes, which keep no state in the bucket.
	reads *mongo.GridFSBucket
}

const uploadsBucket = "uploads"

func (s *Store) Files() calendar.Files { return s.files }

func openMongoFiles(ctx context.Context, db *mongo.Database) (*mongoFiles, error) {
	f := &mongoFiles{db: db, files: db.Collection(uploadsBucket + ".files"),
		chunks: db.Collection(uploadsBucket + ".chunks"), reads: newUploadsBucket(db)}
	// The unique index claims names; the other two are the driver's own, made
	// here so that concurrent first uploads do not race to make them.
	err := ensureIndex(ctx, f.files,
		mongo.IndexModel{Keys: bson.D{{Key: "filename", Value: 1}}, Options: options.Index().SetUnique(true).SetName("filename_1")},
		mongo.IndexModel{Keys: bson.D{{Key: "filename", Value: 1}, {Key: "uploadDate", Value: 1}}, Options: options.Index().SetName("filename_1_uploadDate_1")})
	if err == nil {
		err = ensureIndex(ctx, f.chunks, mongo.IndexModel{Keys: bson.D{{Key: "files_id", Value: 1}, {Key: "n", Value: 1}},
			Options: options.Index().SetUnique(true).SetName("files_id_1_n_1")})
	}
	return f, err
}

// newUploadsBucket is made per upload: a bucket keeps unsynchronised state
// (whether its first write checked the indexes) that concurrent uploads would share.
func newUploadsBucket(db *mongo.Database) *mongo.GridFSBucket {
	return db.GridFSBucket(options.GridFSBucket().SetName(uploadsBucket))
}

func (f *mongoFiles) PutFile(ctx context.Context, name string, owner int64, data []byte) error {
	if err := storage.CheckFileName(name); err != nil {
		return err
	}
	// Spares uploading chunks that cannot win; the index decides.
	switch err := f.files.FindOne(ctx, bson.D{{Key: "filename", Value: name}}).Err(); {
	case err == nil:
		return calendar.ErrConflict
	case !errors.Is(err, mongo.ErrNoDocuments):
		return storeError(err)
	}
	return f.upload(ctx, name, owner, data)
}

func (f *mongoFiles) upload(ctx context.Context, name string, owner int64, data []byte) error {
	id := bson.NewObjectID()
	up, err := newUploadsBucket(f.db).OpenUploadStreamWithID(ctx, id, name,
		options.GridFSUpload().SetMetadata(bson.D{{Key: "owner", Value: owner}}))
	if err != nil {
		return storeError(err)
	}
	if _, err := up.Write(data); err != nil { // no files document yet: the chunks can go
		_ = up.Abort()
		return storeError(err)
	}
	// On other errors the chunks stay: the files document may have landed.
	if err := storeError(up.Close()); !errors.Is(err, calendar.ErrConflict) {
		return err
	}
	// Taken, unless what holds the name is this very upload (an insert the
	// driver retried after its first attempt landed).
	n, err := f.files.CountDocuments(ctx, bson.D{{Key: "_id", Value: id}})
	if err != nil || n == 1 {
		return storeError(err)
	}
	if _, err := f.chunks.DeleteMany(ctx, bson.D{{Key: "files_id", Value: id}}); err != nil {
		return storeError(err)
	}
	return calendar.ErrConflict
}

// OpenFile reads the whole file: a download stream cannot seek.
func (f *mongoFiles) OpenFile(ctx context.Context, name string) (calendar.StoredFile, error) {
	if storage.CheckFileName(name) != nil {
		return nil, calendar.ErrNotFound
	}
	ds, err := f.reads.OpenDownloadStreamByName(ctx, name)
	if errors.Is(err, mongo.ErrFileNotFound) {
		return nil, calendar.ErrNotFound
	}
	if err != nil {
		return nil, storeError(err)
	}
	defer ds.Close()
	file := ds.GetFile()
	data := make([]byte, file.Length)
	if _, err := io.ReadFull(ds, data); errors.Is(err, mongo.ErrMissingChunk) {
		return nil, calendar.ErrNotFound // deleted while read
	} else if err != nil {
		return nil, storeError(err)
	}
	var meta fileMeta
	if len(file.Metadata) > 0 {
		if err := bson.Unmarshal(file.Metadata, &meta); err != nil {
			return nil, err
		}
	}
	info := calendar.FileInfo{Name: file.Name, Owner: meta.Owner, Size: file.Length, Written: file.UploadDate}
	return &memFile{Reader: bytes.NewReader(data), info: info}, nil
}

type fileMeta struct {
	Owner int64 `bson:"owner"`
}

type memFile struct {
	*bytes.Reader
	info calendar.FileInfo
}

func (m *memFile) Info() calendar.FileInfo { return m.info }
func (m *memFile) Close() error            { return nil }

func (f *mongoFiles) DeleteFile(ctx context.Context, name string) error {
	if err := storage.CheckFileName(name); err != nil {
		return err
	}
	var doc struct {
		ID any `bson:"_id"`
	}
	err := f.files.FindOne(ctx, bson.D{{Key: "filename", Value: name}},
		options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 1}})).Decode(&doc)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return nil
	}
	if err != nil {
		return storeError(err)
	}
	if err := f.reads.Delete(ctx, doc.ID); err != nil && !errors.Is(err, mongo.ErrFileNotFound) {
		return storeError(err)
	}
	return nil
}

func (f *mongoFiles) StatFile(ctx context.Context, name string) (calendar.FileInfo, error) {
	if storage.CheckFileName(name) != nil {
		return calendar.FileInfo{}, calendar.ErrNotFound
	}
	var doc fileDoc
	if err := f.files.FindOne(ctx, bson.D{{Key: "filename", Value: name}}).Decode(&doc); err != nil {
		return calendar.FileInfo{}, storeError(err)
	}
	return doc.info(), nil
}

// ListFiles compares whole milliseconds, what uploadDate keeps: a file is
// listed when its stored write time is before the instant.
func (f *mongoFiles) ListFiles(ctx context.Context, before time.Time) ([]calendar.FileInfo, error) {
	if ms := before.Truncate(time.Millisecond); !ms.Equal(before) {
		before = ms.Add(time.Millisecond)
	}
	cur, err := f.files.Find(ctx, bson.D{{Key: "uploadDate", Value: bson.D{{Key: "$lt", Value: before}}}},
		options.Find().SetSort(bson.D{{Key: "filename", Value: 1}}))
	if err != nil {
		return nil, storeError(err)
	}
	var docs []fileDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, storeError(err)
	}
	out := make([]calendar.FileInfo, len(docs))
	for i, d := range docs {
		out[i] = d.info()
	}
	return out, nil
}

// fileDoc is the part of a GridFS files document FileInfo needs.
type fileDoc struct {
	Name       string    `bson:"filename"`
	Length     int64     `bson:"length"`
	UploadDate time.Time `bson:"uploadDate"`
	Metadata   fileMeta  `bson:"metadata"`
}

func (d fileDoc) info() calendar.FileInfo {
	return calendar.FileInfo{Name: d.Name, Owner: d.Metadata.Owner, Size: d.Length, Written: d.UploadDate}
}
